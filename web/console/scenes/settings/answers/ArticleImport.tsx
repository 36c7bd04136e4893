/**
 * Import: a CSV (title, body, language) or a Zendesk Help Center export (JSON). The file is read in the browser
 * and sent as a dry run first: the table shows what would be created and each row's problem; "Import N articles"
 * then creates all of them, or none.
 */
import { type ChangeEvent, useId, useState } from 'react';
import { messageOf } from '../../../api';
import { type ImportPreview, importArticles } from '../../../api/articles';
import { Alert, Button } from '../../../components/ui';
import { languageLabel } from './ArticleList';

type Format = 'csv' | 'zendesk';

const FORMATS: { value: Format; label: string; accept: string; hint: string }[] = [
  {
    value: 'csv',
    label: 'CSV file',
    accept: '.csv,text/csv',
    hint: 'A header row naming the columns title, body and language (en, fr, pt …), then one row per article. The body is Markdown. Rows are numbered as in a spreadsheet: the header is row 1.',
  },
  {
    value: 'zendesk',
    label: 'Zendesk Help Center export (JSON)',
    accept: '.json,application/json',
    hint: 'The JSON of the Help Center articles API (GET /api/v2/help_center/articles.json). Drafts are imported as drafts; their HTML becomes Markdown.',
  },
];

export function ArticleImport({ ceId, showError, onDone }: { ceId: string; showError: (message: string) => void; onDone: () => void }) {
  const [format, setFormat] = useState<Format>('csv');
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const fileId = useId();
  const hintId = useId();
  const chosen = FORMATS.find((f) => f.value === format) ?? FORMATS[0];

  const check = async (content: string, as: Format) => {
    setBusy(true);
    setPreview(null);
    try {
      setPreview(await importArticles(ceId, { format: as, content, dryRun: true }));
    } catch (err) {
      showError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    if (!picked) return;
    const content = await picked.text();
    setFile({ name: picked.name, content });
    await check(content, format);
  };

  const run = async () => {
    if (!file) return;
    setBusy(true);
    try {
      await importArticles(ceId, { format, content: file.content, dryRun: false });
      onDone();
    } catch (err) {
      showError(messageOf(err));
      setBusy(false);
    }
  };

  const count = preview?.articles.length ?? 0;
  const errors = preview?.errors ?? [];
  return (
    <div className="settings-form answers">
      <section className="card settings-section answers-import">
        <div className="section-head">
          <h2>Import articles</h2>
          <Button variant="ghost" onClick={onDone}>
            Back to articles
          </Button>
        </div>
        <fieldset className="answers-import__formats">
          <legend className="field__label">Format</legend>
          {FORMATS.map((f) => (
            <label key={f.value} className="radio-row">
              <input
                type="radio"
                name="import-format"
                value={f.value}
                checked={format === f.value}
                onChange={() => {
                  setFormat(f.value);
                  if (file) void check(file.content, f.value);
                }}
              />
              {f.label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor={fileId}>
            File
          </label>
          <input
            id={fileId}
            className="answers-import__file"
            type="file"
            accept={chosen.accept}
            aria-describedby={hintId}
            onChange={(e) => void choose(e)}
          />
          <p className="field__hint" id={hintId}>
            {chosen.hint}
          </p>
        </div>
        {busy && !preview && (
          <p className="muted" role="status">
            Reading {file?.name ?? 'the file'}…
          </p>
        )}
        {preview && (
          <div className="answers-import__preview" aria-live="polite">
            {errors.length > 0 ? (
              <Alert kind="error" title={`${errors.length} problem${errors.length === 1 ? '' : 's'} to fix first:`}>
                <ul className="answers-import__errors">
                  {errors.map((e) => (
                    <li key={`${e.row}-${e.message}`}>{e.message}</li>
                  ))}
                </ul>
                <p>Nothing is imported until the file has none: fix it and choose it again.</p>
              </Alert>
            ) : (
              <p role="status">
                {count} article{count === 1 ? '' : 's'} ready to import from {file?.name}.
              </p>
            )}
            {count > 0 && (
              <div className="table-wrap">
                <table className="table answers__table">
                  <caption className="sr-only">What the import creates</caption>
                  <thead>
                    <tr>
                      <th scope="col">Title</th>
                      <th scope="col">Language</th>
                      <th scope="col">Status</th>
                      <th scope="col">Slug</th>
                      <th scope="col">Beginning</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.articles.map((a) => (
                      <tr key={`${a.language}/${a.slug}`}>
                        <td data-label="Title" className="table__strong">
                          {a.title}
                        </td>
                        <td data-label="Language">{languageLabel(a.language)}</td>
                        <td data-label="Status">
                          <span className={`badge ${a.published ? 'badge--ok' : 'badge--draft'}`}>
                            {a.published ? 'Published' : 'Draft'}
                          </span>
                        </td>
                        <td data-label="Slug">
                          <code className="inline-code">{a.slug}</code>
                        </td>
                        <td data-label="Beginning" className="table__clip">
                          {a.bodyPreview}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <div className="answers-editor__actions">
              <Button onClick={() => void run()} busy={busy} disabled={count === 0 || errors.length > 0}>
                Import {count} article{count === 1 ? '' : 's'}
              </Button>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
