/** The offline form: a message that goes to e-mail, Slack and the webhook while nobody is online. */
import { MESSAGE_CHARS, NAME_CHARS } from '../../../../server/shared/widget-constants';
import type { UiTexts } from '../../../../server/shared/widget-texts';
import type { Identity, VisitorSettings } from '../../lib/types';
import { clear, h, labelled } from '../dom';
import { emailField } from './info';

export type OfflineDeps = {
  settings: VisitorSettings;
  texts: UiTexts;
  /** The visitor's text for an error code the server answered (its English message for a code not known). */
  error(code: string, message?: string): string;
  identity: Identity | undefined;
  /** POSTs the offline message; answers the server's response. */
  post(body: { name?: string; email: string; message: string }): Promise<Response>;
  sent(email: string): void;
};

export function offlineForm({ settings, texts, error: errorOf, identity, post, sent }: OfflineDeps): HTMLElement {
  const name = h('input', {
    class: 'field',
    name: 'name',
    autocomplete: 'name',
    maxlength: NAME_CHARS,
    value: identity?.name ?? '',
  });
  const email = emailField(identity?.email);
  const message = h('textarea', { class: 'field', name: 'message', required: true, maxlength: MESSAGE_CHARS });
  const error = h('p', { class: 'err', role: 'alert' });
  const submit = h('button', { class: 'btn', type: 'submit' }, settings.offlineSendButton || 'Send');
  const form = h(
    'form',
    {
      class: 'form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        submit.disabled = true;
        error.textContent = '';
        const body = { name: name.value.trim() || undefined, email: email.value.trim(), message: message.value.trim() };
        post(body)
          .then(async (res) => {
            if (!res.ok) {
              const answer = (await res.json().catch(() => ({}))) as { Message?: string; Error?: string };
              throw new Error(errorOf(answer.Error ?? '', answer.Message));
            }
            clear(
              form,
              h(
                'div',
                { class: 'thanks', role: 'status' },
                h('b', {}, '✓'),
                settings.offlineThankYouMessage || "Thanks for your message. We'll be in touch soon!",
              ),
            );
            sent(body.email);
          })
          .catch((err: unknown) => {
            submit.disabled = false;
            error.textContent = err instanceof Error && err.message !== 'Failed to fetch' ? err.message : texts.offlineFailed;
          });
      },
    },
    h('p', {}, settings.offlineGreeting || "Sorry, we aren't online at the moment. Leave a message and we'll get back to you."),
    labelled(settings.offlineNamePlaceholder || 'Name (optional)', name),
    labelled(settings.offlineEmailPlaceholder || 'Email', email),
    labelled(settings.offlineMessagePlaceholder || 'Your message', message),
    error,
    submit,
  );
  return form;
}
