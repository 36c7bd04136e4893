/**
 * Text placed into HTML (an element's content or a quoted attribute) by the pages and mails Parley writes as
 * strings: he's escape, which covers & < > " ' and the backtick old browsers read as a quote.
 */
import he from 'he';

export function escapeHtml(text: string): string {
  return he.escape(text);
}
