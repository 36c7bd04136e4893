/**
 * The panel's window: header (team avatar, title, status, chat options menu, minimise), the banner, the body the
 * screens draw into and the footer; a modal dialog unless the chat is inline (Escape and Tab stay inside it).
 */
import type { UiTexts } from '../../../server/shared/widget-texts';
import type { PanelContext } from '../lib/types';
import { panelCss } from './css';
import { CLOSE_ICON, h, iconButton, MENU_ICON } from './dom';
import { FOCUSABLE, wrapFocus } from './focus';
import { rtlCss } from './rtl';

export type Frame = ReturnType<typeof createFrame>;

/** Draws the window into the loader's shadow root and mount. */
export function createFrame(ctx: PanelContext, t: UiTexts) {
  ctx.root.appendChild(h('style', {}, panelCss));
  ctx.root.appendChild(h('style', {}, rtlCss));

  const heading = h('h2', { id: 'parley-title' });
  const statusDot = h('span', { class: 'dot' });
  const statusText = h('span');
  const teamAvatar = h('img', { class: 'team', alt: '' });
  const menu = h('div', { class: 'menu', role: 'menu', hidden: true });
  const menuButton = iconButton(MENU_ICON, t.chatOptions, () => toggleMenu());
  menuButton.setAttribute('aria-haspopup', 'menu');
  const closeButton = iconButton(CLOSE_ICON, t.minimise, () => ctx.collapse());
  const head = h(
    'header',
    { class: 'head' },
    teamAvatar,
    h('div', { class: 'who' }, heading, h('p', {}, statusDot, statusText)),
    menuButton,
    closeButton,
  );

  const banner = h('p', { class: 'banner', role: 'alert', hidden: true });
  const body = h('div', { class: 'body' });
  const foot = h('div', { class: 'foot' });
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'parley-title' }, head, menu, banner, body, foot);
  if (ctx.style !== 'inline') {
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-modal', 'true');
  }
  panel.setAttribute('dir', ctx.config.dir);
  panel.setAttribute('lang', ctx.config.locale);
  // Inline, the chat is part of the page: there is nothing to minimise it to.
  closeButton.hidden = ctx.style === 'inline';
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && ctx.style !== 'inline') {
      event.stopPropagation();
      if (!menu.hidden) toggleMenu(false);
      else ctx.collapse();
    }
    // A modal dialog: Tab and Shift+Tab go round its controls while it is open (Escape or close leave it).
    if (event.key === 'Tab' && ctx.style !== 'inline') {
      const controls = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
      const next = wrapFocus(controls, ctx.root.activeElement as HTMLElement | null, event.shiftKey);
      if (next) {
        event.preventDefault();
        next.focus();
      }
    }
  });
  ctx.mount.appendChild(panel);

  function showBanner(text: string | undefined): void {
    banner.hidden = !text;
    banner.textContent = text ?? '';
    banner.className = 'banner';
  }

  function toggleMenu(open = menu.hidden): void {
    menu.hidden = !open;
    menuButton.setAttribute('aria-expanded', String(open));
    if (open) (menu.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  return { panel, heading, statusDot, statusText, teamAvatar, menu, menuButton, body, foot, showBanner, toggleMenu };
}
