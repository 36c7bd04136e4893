/**
 * The info prompts: the privacy consent and the pre-chat details form (screens before the chat), and the
 * e-mail card inside the chat (the operator asked for it, or nobody answered yet).
 */
import { EMAIL_CHARS, NAME_CHARS } from '../../../../server/shared/widget-constants';
import type { UiTexts } from '../../../../server/shared/widget-texts';
import type { Identity, VisitorSettings } from '../../lib/types';
import { clear, h, labelled } from '../dom';

export function consentForm(settings: VisitorSettings, onAccept: () => void): HTMLElement {
  return h(
    'form',
    {
      class: 'form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        onAccept();
      },
    },
    h('p', {}, settings.acceptanceText || 'I agree to my personal data being stored and used to answer my questions.'),
    settings.privacyPolicyLinkURL &&
      h(
        'p',
        {},
        h(
          'a',
          { href: settings.privacyPolicyLinkURL, target: '_blank', rel: 'noopener noreferrer' },
          settings.privacyPolicyLinkText || 'Privacy policy',
        ),
      ),
    h('button', { class: 'btn', type: 'submit' }, settings.defaultAcceptBtnLabel || 'Accept'),
  );
}

/** The required e-mail field of the forms, filled with what identify() said. */
export function emailField(value: string | undefined): HTMLInputElement {
  return h('input', {
    class: 'field',
    name: 'email',
    type: 'email',
    autocomplete: 'email',
    required: true,
    maxlength: EMAIL_CHARS,
    value: value ?? '',
  });
}

export function detailsForm(
  settings: VisitorSettings,
  texts: UiTexts,
  identity: Identity | undefined,
  onSubmit: (details: { name: string; email: string }) => void,
): HTMLElement {
  const name = h('input', {
    class: 'field',
    name: 'name',
    autocomplete: 'name',
    required: true,
    maxlength: NAME_CHARS,
    value: identity?.name ?? '',
  });
  const email = emailField(identity?.email);
  return h(
    'form',
    {
      class: 'form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        onSubmit({ name: name.value.trim(), email: email.value.trim() });
      },
    },
    h('p', {}, settings.requireInfoGreeting || 'Please tell us who you are before we start.'),
    labelled(texts.name, name),
    labelled(texts.email, email),
    h('button', { class: 'btn', type: 'submit' }, settings.requireInfoSubmitBtn || 'Start chat'),
  );
}

/** A card in the chat asking for the visitor's e-mail; once given (now, or `answered` before), it shows the address. */
export function emailCard(
  settings: VisitorSettings,
  texts: UiTexts,
  question: string,
  onEmail: (email: string) => void,
  answered?: string,
): HTMLElement {
  if (answered) return h('li', { class: 'card' }, h('p', {}, question), h('p', {}, `✓ ${answered}`));
  const email = h('input', {
    class: 'field',
    type: 'email',
    required: true,
    autocomplete: 'email',
    'aria-label': texts.email,
    placeholder: texts.emailExample,
  });
  const card = h('li', { class: 'card' });
  const form = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        const given = email.value.trim();
        onEmail(given);
        clear(card, h('p', {}, question), h('p', {}, `✓ ${given}`));
      },
    },
    h('div', { class: 'row' }, email, h('button', { class: 'btn', type: 'submit' }, settings.defaultSendBtnLabel || 'Send')),
  );
  clear(card, h('p', {}, question), form);
  return card;
}
