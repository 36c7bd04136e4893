/**
 * A help-center article opened inside the panel (from a suggestion while the visitor types, or from an automatic
 * answer): its title, its sanitised body, a link to its public page, Back, and "Still need help? Send your message",
 * which also goes back to the composer with the visitor's text as they left it.
 */
import type { UiTexts } from '../../../../server/shared/widget-texts';
import { h } from '../dom';
import { safeHtml } from '../text';

export type ArticleData = { id: string; title: string; html: string; url: string };

/** The article over the chat; `article` null: it could not be loaded. `close` puts the visitor back at the composer. */
export function articleView(texts: UiTexts, article: ArticleData | null, close: () => void): HTMLElement {
  const back = h('button', { type: 'button', class: 'btn ghost back', onclick: close }, texts.back);
  const body = h('div', { class: 'doc' });
  if (article) {
    body.append(
      h('h3', { id: 'parley-article' }, article.title),
      h('div', { class: 'prose' }, safeHtml(article.html, true)),
      h('p', {}, h('a', { href: article.url, target: '_blank', rel: 'noopener noreferrer' }, texts.fullArticle)),
    );
  } else body.append(h('p', { id: 'parley-article', class: 'err' }, texts.articleFailed));
  return h(
    'section',
    { class: 'article', 'aria-labelledby': 'parley-article' },
    h('div', { class: 'bar' }, back),
    body,
    h('div', { class: 'bar' }, h('button', { type: 'button', class: 'btn', onclick: close }, texts.stillNeedHelp)),
  );
}
