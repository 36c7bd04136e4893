/**
 * The window's look from the settings and the state: colours, title and status, the composer's placeholder and
 * buttons, the chat options menu (End chat and its confirmation) and the footer (privacy link, "Powered by" or the
 * site's own line).
 */
import { MOBILE_QUERY, type PanelContext } from '../lib/types';
import { clear, h } from './dom';
import type { Frame } from './frame';
import { type Action, needsSocket, type PanelState } from './reducer';
import type { ChatScreen } from './screens/chat';
import { confirmEndOverlay } from './screens/chatEnd';
import type { Language } from './text';

export type LookDeps = {
  ctx: PanelContext;
  lang: Language;
  frame: Frame;
  chat: ChatScreen;
  state(): PanelState;
  /** Whether the socket is open now. */
  connected(): boolean;
  dispatch(action: Action): void;
};

/** A placeholder that tells to press Enter (in any of the built-in languages' words for it), said for a phone. */
function phonePlaceholder(placeholder: string, instead: string): string {
  const english = placeholder.replace(/,? and press Enter/i, '');
  return /\bEnter\b|Entrée|\bInvio\b/.test(english) ? instead : english;
}

export function createLook(deps: LookDeps) {
  const { ctx, lang, frame, chat, state } = deps;
  const t = lang.texts;
  const s = () => ctx.settings();

  const title = () =>
    state().online || state().conversation?.status === 'open' ? s().onlineTitle || 'Chat with us' : s().offlineTitle || 'Contact us';
  const statusLabel = () => (state().online ? lang.fill(t.online, { agent: s().agentLabel || '' }) : t.away);

  function confirmEnd(): void {
    frame.toggleMenu(false);
    const overlay = confirmEndOverlay(
      s(),
      () => deps.dispatch({ a: 'queue', frame: { t: 'end' } }),
      () => chat.input.focus(),
    );
    chat.el.appendChild(overlay);
    overlay.querySelector('button')?.focus();
  }

  function apply(): void {
    const settings = s();
    const { panel, heading, statusDot, statusText, teamAvatar, menu, menuButton, foot } = frame;
    panel.style.setProperty('--bg', settings.titleColor || '#2f6fed');
    panel.style.setProperty('--fg', settings.titleFontColor || '#fff');
    heading.textContent = title();
    statusDot.className = state().online ? 'dot on' : 'dot';
    statusText.textContent = deps.connected() || !state().stored.token || !needsSocket(state()) ? statusLabel() : t.reconnecting;
    const team = settings.showTeamAvatarPreChat && settings.teamAvatarUrl;
    teamAvatar.hidden = !team;
    if (team) teamAvatar.src = team;
    const phone = matchMedia(MOBILE_QUERY).matches;
    // Phones have no Enter key to speak of: their keyboards send with the send button.
    const placeholder = settings.onlineMessagePlaceholder || 'Type your message…';
    chat.input.placeholder = phone ? phonePlaceholder(placeholder, t.phonePlaceholder) : placeholder;
    chat.attach.hidden = settings.enableFileUploads === false;
    chat.attach.disabled = !deps.connected();
    chat.sendButton.hidden = settings.showSendBtnOnDesktop === false && !phone;
    const canEnd = settings.showConversationEnd !== false && state().conversation?.status === 'open';
    clear(
      menu,
      canEnd &&
        h('button', { type: 'button', role: 'menuitem', onclick: () => confirmEnd() }, settings.conversationEndMenuLinkLabel || 'End chat'),
    );
    menuButton.hidden = !canEnd;
    // Plans without white label say whose chat this is; plans with it may put a line of their own there.
    const poweredBy = ctx.config.poweredBy;
    const own = poweredBy ? '' : (settings.footerText ?? '').trim();
    const privacy =
      settings.displayPrivacyPolicy &&
      settings.privacyPolicyLinkURL &&
      h(
        'a',
        { href: settings.privacyPolicyLinkURL, target: '_blank', rel: 'noopener noreferrer' },
        settings.privacyPolicyLinkText || 'Privacy policy',
      );
    const brand = poweredBy
      ? h('a', { class: 'brand', href: poweredBy, target: '_blank', rel: 'noopener' }, t.poweredBy)
      : own && h('span', {}, own);
    clear(foot, privacy, privacy && brand && h('span', { 'aria-hidden': 'true' }, ' · '), brand);
    foot.hidden = !foot.childElementCount;
  }

  /** The socket opened or closed: "reconnecting" while a visitor with a conversation waits for it. */
  function connection(connected: boolean): void {
    frame.statusText.textContent = connected || !state().stored.token ? statusLabel() : t.reconnecting;
    chat.attach.disabled = !connected;
  }

  return { apply, connection };
}
