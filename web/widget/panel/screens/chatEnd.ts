/** The end of a chat: the "are you sure" question, and the card after the end with rating and transcript. */
import { FEEDBACK_CHARS } from '../../../../server/shared/widget-constants';
import type { ClientFrame } from '../../../../server/shared/widget-protocol';
import type { UiTexts } from '../../../../server/shared/widget-texts';
import type { VisitorSettings } from '../../lib/types';
import { clear, h, iconButton, THUMB_UP } from '../dom';

/** An overlay asking the visitor to confirm ending the chat; it removes itself on either answer. */
export function confirmEndOverlay(settings: VisitorSettings, onYes: () => void, onNo: () => void): HTMLElement {
  const answer = (then: () => void) => () => {
    overlay.remove();
    then();
  };
  const overlay = h(
    'div',
    { class: 'overlay' },
    h(
      'div',
      { class: 'card', role: 'alertdialog', 'aria-label': settings.conversationEndMenuLinkLabel || 'End chat' },
      h('p', {}, settings.conversationEndConfirmationQuestion || 'Are you sure you want to end this chat?'),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', class: 'btn', onclick: answer(onYes) }, settings.defaultYesBtnLabel || 'Yes'),
        h('button', { type: 'button', class: 'btn ghost', onclick: answer(onNo) }, settings.defaultNoBtnLabel || 'No'),
      ),
    ),
  );
  return overlay;
}

/** After the end: the end line, then rating (a thank-you once `rated`) and transcript as configured. */
export function endedCard(
  settings: VisitorSettings,
  texts: UiTexts,
  knownEmail: string | undefined,
  send: (frame: ClientFrame) => void,
  rated: boolean,
): HTMLElement {
  const card = h('li', { class: 'card' }, h('p', {}, h('b', {}, settings.conversationEndLabel || 'This chat has ended.')));
  if (settings.showConversationRating !== false) card.append(rated ? thanks(settings) : ratingBox(settings, texts, send));
  if (settings.showTranscriptSendOpt !== false) card.append(transcriptBox(settings, knownEmail, send));
  return card;
}

const thanks = (settings: VisitorSettings) =>
  h('p', { role: 'status' }, settings.conversationRatingThankYou || 'Thanks for your feedback!');

/** The rating is recorded on the click; the feedback text, optional, follows with Send. */
function ratingBox(settings: VisitorSettings, texts: UiTexts, send: (frame: ClientFrame) => void): HTMLElement {
  const rating = h('div', {}, h('p', {}, settings.conversationRatingLabel || 'How would you rate this chat?'));
  const pick = (value: 'up' | 'down') => {
    send({ t: 'rate', rating: value });
    const feedback = h('textarea', {
      class: 'field',
      rows: 3,
      placeholder: settings.conversationRatingPlaceholder || 'Tell us more (optional)',
      maxlength: FEEDBACK_CHARS,
      'aria-label': texts.feedback,
    });
    clear(
      rating,
      h(
        'form',
        {
          onsubmit: (event: Event) => {
            event.preventDefault();
            const text = feedback.value.trim();
            if (text) send({ t: 'rate', rating: value, feedback: text });
            clear(rating, thanks(settings));
          },
        },
        feedback,
        h('button', { class: 'btn', type: 'submit' }, settings.defaultSendBtnLabel || 'Send'),
      ),
    );
    feedback.focus();
  };
  const up = iconButton(THUMB_UP, texts.good, () => pick('up'), 'choice');
  const down = iconButton(THUMB_UP, texts.bad, () => pick('down'), 'choice');
  (down.firstElementChild as SVGElement).style.transform = 'rotate(180deg)';
  rating.append(h('div', { class: 'row' }, up, down));
  return rating;
}

function transcriptBox(settings: VisitorSettings, knownEmail: string | undefined, send: (frame: ClientFrame) => void): HTMLElement {
  // The configured text is the field's visible label: as a placeholder it was cut off in the narrow row.
  const email = h('input', {
    class: 'field',
    id: 'parley-transcript-email',
    type: 'email',
    required: true,
    value: knownEmail ?? '',
    placeholder: 'you@example.com',
    autocomplete: 'email',
  });
  const label = h(
    'label',
    { class: 'label', for: 'parley-transcript-email' },
    settings.conversationEndTranscriptPlaceholder || 'Email address for a transcript',
  );
  const box = h('form', {
    onsubmit: (event: Event) => {
      event.preventDefault();
      send({ t: 'transcript', email: email.value.trim() });
      clear(box, h('p', { role: 'status' }, settings.conversationTranscriptSentThankYou || 'The transcript is on its way to your inbox.'));
    },
  });
  clear(
    box,
    label,
    h('div', { class: 'row' }, email, h('button', { class: 'btn', type: 'submit' }, settings.defaultSendBtnLabel || 'Send')),
  );
  return box;
}
