/** A tiny element builder: the panel is vanilla DOM, small enough not to need a framework. */
type Attrs = Record<string, string | boolean | number | EventListener | undefined>;
type Child = Node | string | false | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = String(value);
    else if (name === 'value') (el as HTMLInputElement).value = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    el.append(child);
  }
}

export function clear(el: Element, ...children: Child[]): void {
  el.textContent = '';
  append(el, children);
}

export const SEND_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z"/></svg>';
export const CLIP_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" d="M21 11.5 12.5 20a5 5 0 0 1-7-7L14 4.5a3.3 3.3 0 0 1 4.7 4.7L10.2 17.7a1.7 1.7 0 0 1-2.4-2.4L15.5 7.6"/></svg>';
export const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" d="M6 6l12 12M18 6 6 18"/></svg>';
export const MENU_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><circle cx="5" cy="12" r="2" fill="currentColor"/><circle cx="12" cy="12" r="2" fill="currentColor"/><circle cx="19" cy="12" r="2" fill="currentColor"/></svg>';
export const THUMB_UP =
  '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M2 21h4V9H2v12Zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3a1.5 1.5 0 0 0-.5-1L13.1 1 6.6 7.6A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.8-1.2l3-7.1.2-.7v-2Z"/></svg>';

/** An icon button: the SVG is a constant of this module, never text from the network. */
export function iconButton(icon: string, label: string, onClick: EventListener, cls = 'icon'): HTMLButtonElement {
  const button = h('button', { type: 'button', class: cls, 'aria-label': label, title: label, onclick: onClick });
  button.innerHTML = icon;
  return button;
}
export const EMPTY_ICON =
  '<svg viewBox="0 0 48 48" width="44" height="44" aria-hidden="true"><rect x="4" y="8" width="30" height="22" rx="6" fill="currentColor" opacity=".18"/><path fill="currentColor" d="M16 16h22a6 6 0 0 1 6 6v12a6 6 0 0 1-6 6h-2v5l-7-5H16a6 6 0 0 1-6-6V22a6 6 0 0 1 6-6Z" opacity=".55"/></svg>';

/** A form field with its visible label. */
export function labelled(label: string, field: HTMLElement): HTMLElement {
  return h('label', {}, label, field);
}
