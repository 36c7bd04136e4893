/**
 * A transcript message as the widget shows it (web/widget/panel/text.ts): an operator's formatting (bold, italics,
 * links, lists) rebuilt from the same allow-list rather than trusted as HTML, plain text with its links, and the
 * message's files: images shown, other files to download. Files are fetched with the console's session.
 */
import { type ReactNode, useEffect, useState } from 'react';
import type { TranscriptFile } from '../../../../server/shared/reports';
import { readToken } from '../../api/token';

const ALLOWED = new Set(['B', 'STRONG', 'I', 'EM', 'CODE', 'PRE', 'BR', 'P', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'S', 'DEL']);
const SAFE_HREF = /^(https?:|mailto:)/i;
const URLS = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g;

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/** Plain text with its http(s) addresses as links; line breaks are kept by CSS. */
export function linkified(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URLS)) {
    out.push(text.slice(last, match.index));
    out.push(
      <ExternalLink key={match.index} href={match[0]}>
        {match[0]}
      </ExternalLink>,
    );
    last = (match.index ?? 0) + match[0].length;
  }
  out.push(text.slice(last));
  return out;
}

/** The server's sanitised HTML as React elements of the widget's allow-list; anything else keeps only its text. */
export function formatted(html: string): ReactNode[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let key = 0;
  const copy = (from: Node): ReactNode[] =>
    Array.from(from.childNodes).flatMap((node): ReactNode[] => {
      if (node.nodeType === Node.TEXT_NODE) return [node.textContent ?? ''];
      if (!(node instanceof Element) || node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return [];
      key += 1;
      if (node.tagName === 'A') {
        const href = node.getAttribute('href') ?? '';
        return SAFE_HREF.test(href)
          ? [
              <ExternalLink key={key} href={href}>
                {copy(node)}
              </ExternalLink>,
            ]
          : copy(node);
      }
      if (node.tagName === 'BR') return [<br key={key} />];
      if (ALLOWED.has(node.tagName)) {
        const Tag = node.tagName.toLowerCase() as 'strong';
        return [<Tag key={key}>{copy(node)}</Tag>];
      }
      return copy(node);
    });
  return copy(doc.body);
}

/**
 * A file fetched with the session, as a data: URL: the console's Content Security Policy allows data: images (not
 * blob: ones), and a transcript's files are a visitor's uploads, a few megabytes at most.
 */
function useFileUrl(url: string): string | null {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    const token = readToken();
    fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'same-origin' })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!blob) return;
        const reader = new FileReader();
        reader.onload = () => live && typeof reader.result === 'string' && setDataUrl(reader.result);
        reader.readAsDataURL(blob);
      })
      .catch((err: unknown) => console.error('transcript file failed to load', err));
    return () => {
      live = false;
    };
  }, [url]);
  return dataUrl;
}

const sizeOf = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function FileView({ file }: { file: TranscriptFile }) {
  const dataUrl = useFileUrl(file.url);
  const image = file.mimetype.startsWith('image/');
  if (!file.url) {
    return (
      <span className="reports__file">
        📎 {file.name} ({sizeOf(file.size)}, in Slack)
      </span>
    );
  }
  if (!dataUrl) {
    return <span className="reports__file">📎 {file.name}</span>;
  }
  return (
    <a className="reports__file" href={dataUrl} download={file.name}>
      {image ? <img className="reports__file-image" src={dataUrl} alt={file.name} /> : `📎 ${file.name} (${sizeOf(file.size)})`}
    </a>
  );
}

export function MessageBody({ text, html, files }: { text: string; html: string; files: TranscriptFile[] }) {
  return (
    <>
      {(html || text) && <span className="reports__message-text">{html ? formatted(html) : linkified(text)}</span>}
      {files.length > 0 && (
        <span className="reports__files">
          {files.map((f) => (
            <FileView key={f.id} file={f} />
          ))}
        </span>
      )}
    </>
  );
}
