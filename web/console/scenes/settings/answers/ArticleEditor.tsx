/**
 * One article: title, Markdown body with the server's own rendering beside it (POST …/articles/preview, the one
 * sanitised HTML the widget, mails and public pages show), language, slug; Publish, Save as draft, Delete.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ARTICLE_LIMITS, SLUG_PATTERN, slugify } from '../../../../../server/shared/articles';
import { isWidgetLocale, WIDGET_LOCALES, type WidgetLocale } from '../../../../../server/shared/widget-texts';
import { messageOf } from '../../../api';
import { type Article, deleteArticle, getArticle, previewArticle, saveArticle } from '../../../api/articles';
import { useConfirm } from '../../../components/ConfirmDialog';
import { MarkdownHint } from '../../../components/MarkdownHint';
import { TagSelect } from '../../../components/TagSelect';
import { Button, PageLoader, TextField } from '../../../components/ui';
import { Select } from '../form';
import { languageLabel } from './ArticleList';

const PREVIEW_DELAY_MS = 300;
export const TITLE_MISSING = 'Enter a title: visitors find the article by it.';
export const SLUG_INVALID = 'Lower-case letters, digits and dashes only, e.g. reset-your-password.';

type Draft = { title: string; body: string; language: string; slug: string; tag: string };

export function ArticleEditor({
  ceId,
  tags,
  articleId,
  newLanguage,
  showError,
  clearError,
  setDirty,
  onDone,
}: {
  ceId: string;
  /** The widget's tags (Behavior → Tags), which the article may give the conversations it answers. */
  tags: readonly string[];
  /** null for a new article. */
  articleId: string | null;
  /** The language a new article starts in. */
  newLanguage?: string;
  showError: (message: string) => void;
  clearError: () => void;
  setDirty: (dirty: boolean) => void;
  /** Back to the list, on the tab of this language. */
  onDone: (language?: string) => void;
}) {
  const [article, setArticle] = useState<Article | null>(null);
  const [draft, setDraft] = useState<Draft | null>(
    articleId
      ? null
      : { title: '', body: '', language: newLanguage && isWidgetLocale(newLanguage) ? newLanguage : 'en', slug: '', tag: '' },
  );
  const [html, setHtml] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState<'publish' | 'draft' | null>(null);
  const confirm = useConfirm();
  const bodyId = useId();
  const previewId = useId();
  // The article loads once: the parent's callbacks change on every render.
  const loadFailed = useRef({ showError, onDone });
  loadFailed.current = { showError, onDone };

  useEffect(() => {
    if (!articleId) return;
    let live = true;
    getArticle(ceId, articleId).then(
      (a) => {
        if (!live) return;
        setArticle(a);
        setDraft({ title: a.title, body: a.body, language: a.language, slug: a.slug, tag: a.tag ?? '' });
      },
      (err: unknown) => {
        if (!live) return;
        loadFailed.current.showError(messageOf(err));
        loadFailed.current.onDone();
      },
    );
    return () => {
      live = false;
    };
  }, [ceId, articleId]);

  // The preview follows the body, a moment after typing stops.
  const body = draft?.body ?? '';
  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      if (body.trim() === '') {
        setHtml('');
        return;
      }
      previewArticle(ceId, body).then(
        (h) => live && setHtml(h),
        () => undefined,
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [ceId, body]);

  if (!draft) return <PageLoader label="Loading the article…" />;

  const edit = (changes: Partial<Draft>) => {
    setDraft({ ...draft, ...changes });
    setDirty(true);
  };
  const titleMissing = draft.title.trim() === '';
  const slug = draft.slug.trim();
  const slugInvalid = slug !== '' && !SLUG_PATTERN.test(slug);

  const save = async (published: boolean) => {
    setTried(true);
    if (titleMissing || slugInvalid) return;
    setBusy(published ? 'publish' : 'draft');
    clearError();
    try {
      const saved = await saveArticle(ceId, article?.id ?? null, {
        title: draft.title,
        body: draft.body,
        language: draft.language as WidgetLocale,
        published,
        tag: draft.tag,
        ...(slug ? { slug } : {}),
      });
      setDirty(false);
      onDone(saved.language);
    } catch (err) {
      showError(messageOf(err));
      setBusy(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(true);
  };

  const askDelete = () => {
    if (!article) return;
    confirm.ask({
      title: 'Delete article?',
      body: (
        <p>
          Delete <strong>{article.title}</strong>? Visitors can no longer find it, and its public page goes away.
        </p>
      ),
      confirmLabel: 'Delete',
      danger: true,
      action: async () => {
        await deleteArticle(ceId, article.id);
        confirm.close();
        setDirty(false);
        onDone(article.language);
      },
    });
  };

  return (
    <div className="settings-form answers">
      <form className="card settings-section answers-editor" onSubmit={submit} noValidate>
        <div className="section-head">
          <h2>{article ? 'Edit article' : 'New article'}</h2>
          {article && (
            <span className={`badge ${article.published ? 'badge--ok' : 'badge--draft'}`}>{article.published ? 'Published' : 'Draft'}</span>
          )}
        </div>
        <TextField
          label="Title"
          value={draft.title}
          maxLength={ARTICLE_LIMITS.titleChars}
          onChange={(e) => edit({ title: e.target.value })}
          error={tried && titleMissing ? TITLE_MISSING : null}
          hint="The question it answers, as a visitor would ask it."
          autoFocus={!article}
        />
        <div className="answers-editor__meta">
          <Select
            label="Language"
            value={draft.language}
            options={WIDGET_LOCALES.map((l) => ({ value: l, label: languageLabel(l) }))}
            onChange={(language) => edit({ language })}
            hint="Visitors see articles in their own language."
          />
          <TextField
            label="Slug (optional)"
            value={draft.slug}
            maxLength={ARTICLE_LIMITS.slugChars}
            placeholder={slugify(draft.title || 'your title')}
            onChange={(e) => edit({ slug: e.target.value })}
            error={tried && slugInvalid ? SLUG_INVALID : null}
            hint="The end of the article's address. Made from the title when empty."
          />
          <TagSelect
            id="article-tag"
            value={draft.tag}
            tags={tags}
            onChange={(tag) => edit({ tag })}
            hint="Added to the conversation when this article answers the visitor (automatically or sent from Slack)."
          />
        </div>
        <div className="answers-editor__panes">
          <div className="field">
            <label className="field__label" htmlFor={bodyId}>
              Body
            </label>
            <textarea
              id={bodyId}
              className="field__input answers-editor__body"
              rows={16}
              value={draft.body}
              maxLength={ARTICLE_LIMITS.bodyChars}
              onChange={(e) => edit({ body: e.target.value })}
            />
            <p className="field__hint">
              <MarkdownHint /> Headings (##), lists, quotes, code, links and https images.
            </p>
          </div>
          <section className="answers-editor__preview" aria-labelledby={previewId}>
            <h3 className="field__label" id={previewId}>
              Preview
            </h3>
            {html ? (
              // The server's sanitised rendering (ownerText articleHtml): the same HTML visitors get.
              <div className="answers-editor__rendered article-body" dangerouslySetInnerHTML={{ __html: html }} />
            ) : (
              <p className="muted">The body, as visitors will see it, shows here.</p>
            )}
          </section>
        </div>
        <div className="answers-editor__actions">
          <Button type="submit" busy={busy === 'publish'} disabled={busy !== null}>
            Publish
          </Button>
          <Button variant="secondary" busy={busy === 'draft'} disabled={busy !== null} onClick={() => void save(false)}>
            Save as draft
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setDirty(false);
              onDone(article?.language);
            }}
            disabled={busy !== null}
          >
            Cancel
          </Button>
          {article && (
            <Button variant="danger" className="answers-editor__delete" onClick={askDelete} disabled={busy !== null}>
              Delete
            </Button>
          )}
        </div>
      </form>
      {confirm.dialog}
    </div>
  );
}
