/**
 * The widget's articles: a search over titles and bodies, one tab per language the help center has (plus "Add
 * language"), each article's status and last update, and how many the plan allows.
 */
import { useEffect, useId, useState } from 'react';
import { articleLimitText } from '../../../../../server/shared/articles';
import { LOCALE_NAMES, WIDGET_LOCALES, type WidgetLocale } from '../../../../../server/shared/widget-texts';
import { messageOf } from '../../../api';
import { type ArticleList as List, listArticles } from '../../../api/articles';
import { PlusIcon } from '../../../components/icons';
import { Button, PageLoader } from '../../../components/ui';

const SEARCH_DELAY_MS = 250;

/** A language's name in English and in itself ("French (Français)"), for owners of any language. */
export function languageLabel(tag: string): string {
  const own = LOCALE_NAMES[tag as WidgetLocale];
  let english = tag;
  try {
    english = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    // An unknown tag keeps its code.
  }
  return own && own !== english ? `${english} (${own})` : english;
}

const updated = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export function ArticleList({
  ceId,
  language,
  showError,
  onLanguage,
  onOpen,
  onView,
}: {
  ceId: string;
  /** The language tab shown; '' for all languages. */
  language: string;
  showError: (message: string) => void;
  onLanguage: (language: string) => void;
  onOpen: (id: string, language?: string) => void;
  onView: (view: 'import' | 'synonyms') => void;
}) {
  const [query, setQuery] = useState('');
  const [list, setList] = useState<List | null>(null);
  const searchId = useId();
  const addId = useId();

  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(
      () => {
        listArticles(ceId, { q: query.trim() || undefined, language: language || undefined }).then(
          (l) => live && setList(l),
          (err: unknown) => {
            if (!live) return;
            showError(messageOf(err));
            setList({ articles: [], total: 0, languages: [], limit: 0 });
          },
        );
      },
      query ? SEARCH_DELAY_MS : 0,
    );
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [ceId, query, language, showError]);

  if (list === null) return <PageLoader label="Loading articles…" />;

  const full = list.limit !== 0 && list.total >= list.limit;
  const missing = WIDGET_LOCALES.filter((l) => !list.languages.includes(l));
  // One tab per language that has articles, and "All languages" when there are several.
  const tabs = list.languages.length > 1 ? ['', ...list.languages] : [...list.languages];
  if (language && !tabs.includes(language)) tabs.push(language);

  const actions = (
    <div className="answers__actions">
      <Button onClick={() => onOpen('new', language || undefined)} disabled={full}>
        <PlusIcon /> New article
      </Button>
      <Button variant="secondary" onClick={() => onView('import')} disabled={full}>
        Import
      </Button>
      <Button variant="secondary" onClick={() => onView('synonyms')}>
        Synonyms
      </Button>
    </div>
  );

  if (list.total === 0) {
    return (
      <div className="settings-form answers">
        <section className="card empty-state">
          <h2>Write your first article</h2>
          <p className="muted">
            Articles answer your visitors before they ask: the widget suggests them as a visitor types, answers with them when nobody is
            there, and your team sends them from Slack. Write them here in Markdown, or import them from a CSV file or a Zendesk Help Center
            export.
          </p>
          {actions}
          <p className="muted answers__limit">{limitLine(list)}</p>
        </section>
      </div>
    );
  }

  return (
    <div className="settings-form answers">
      <section className="card settings-section">
        <div className="section-head">
          <h2>Articles</h2>
          {actions}
        </div>
        <p className="muted answers__limit">
          {limitLine(list)}
          {full && ' Upgrade your plan on the Account page to add more.'}
        </p>
        <div className="answers__filters">
          <div className="field answers__search">
            <label className="field__label" htmlFor={searchId}>
              Search articles
            </label>
            <input
              id={searchId}
              className="field__input"
              type="search"
              value={query}
              placeholder="Words of a title or body"
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="field answers__add-language">
            <label className="field__label" htmlFor={addId}>
              Add language
            </label>
            <select
              id={addId}
              className="field__input field__select"
              value=""
              disabled={full || missing.length === 0}
              onChange={(e) => {
                if (e.target.value) onOpen('new', e.target.value);
              }}
            >
              <option value="">A new article in…</option>
              {missing.map((l) => (
                <option key={l} value={l}>
                  {languageLabel(l)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {tabs.length > 0 && (
          <nav className="answers__languages" aria-label="Languages">
            {tabs.map((l) => (
              <button
                key={l || 'all'}
                type="button"
                className="answers__language"
                aria-current={l === language ? 'page' : undefined}
                onClick={() => onLanguage(l)}
              >
                {l ? languageLabel(l) : 'All languages'}
              </button>
            ))}
          </nav>
        )}
        {list.articles.length === 0 ? (
          <p className="muted" role="status">
            No article {query.trim() ? `has “${query.trim()}” in its title or body` : 'in this language yet'}.
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table answers__table">
              <caption className="sr-only">
                {list.articles.length} article{list.articles.length === 1 ? '' : 's'}
                {query.trim() ? ` with “${query.trim()}”` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Language</th>
                  <th scope="col">Status</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.articles.map((a) => (
                  <tr key={a.id}>
                    <td data-label="Title" className="table__strong">
                      <button type="button" className="link-button answers__title" onClick={() => onOpen(a.id)}>
                        {a.title}
                      </button>
                    </td>
                    <td data-label="Language">{languageLabel(a.language)}</td>
                    <td data-label="Status">
                      <span className={`badge ${a.published ? 'badge--ok' : 'badge--draft'}`}>{a.published ? 'Published' : 'Draft'}</span>
                    </td>
                    <td data-label="Updated">
                      <time dateTime={a.updatedAt}>{updated(a.updatedAt)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function limitLine(list: List): string {
  const count = `${list.total} article${list.total === 1 ? '' : 's'}`;
  return list.limit === 0
    ? `${count}. Your plan has ${articleLimitText(0).toLowerCase()}.`
    : `${count} of ${articleLimitText(list.limit)} on your plan.`;
}
