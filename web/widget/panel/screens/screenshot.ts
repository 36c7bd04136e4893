/**
 * An operator's screenshot request: the owner's question with Allow and Decline; on Allow the picture is taken
 * (the screenshot script is loaded then, not before), shown to the visitor, and sent only when they say so.
 */
import type { UiTexts } from '../../../../server/shared/widget-texts';
import type { VisitorSettings } from '../../lib/types';
import { clear, h } from '../dom';

export type ScreenshotCardDeps = {
  settings: VisitorSettings;
  /** The widget's own lines in the visitor's language. */
  texts: Pick<UiTexts, 'shotTaking' | 'shotPreview' | 'shotSend' | 'shotAlt' | 'shotDeclined' | 'shotNotSent' | 'shotUnsupported'>;
  /** Takes the picture; rejects when this browser cannot. */
  take(): Promise<Blob>;
  /** Sends the picture into the conversation, answering the request. */
  send(picture: Blob): void;
  /** The visitor said no (or cancelled after seeing the picture), or the browser could not take it. */
  answer(answer: 'declined' | 'unsupported'): void;
  /** The card changed size (a picture came in): keep the newest part in view. */
  resized(): void;
};

export function screenshotCard(deps: ScreenshotCardDeps): HTMLElement {
  const { settings, texts } = deps;
  const card = h('li', { class: 'card shot' });
  const choice = (label: string, onclick: () => void, primary = false) =>
    h('button', { type: 'button', class: primary ? 'choice picked' : 'choice', onclick }, label);
  const done = (text: string) => card.replaceWith(h('li', { class: 'system', role: 'status' }, text));

  const ask = () =>
    clear(
      card,
      h('p', {}, settings.requestScreenshotText || 'The operator would like a screenshot of this page. Allow?'),
      h(
        'div',
        { class: 'row' },
        choice(settings.requestScreenshotAllowLabel || 'Allow', () => void take(), true),
        choice(settings.requestScreenshotDeclineLabel || 'Decline', () => {
          deps.answer('declined');
          done(texts.shotDeclined);
        }),
      ),
    );

  async function take(): Promise<void> {
    clear(card, h('p', { role: 'status' }, texts.shotTaking));
    let picture: Blob;
    try {
      picture = await deps.take();
    } catch {
      deps.answer('unsupported');
      done(texts.shotUnsupported);
      return;
    }
    const url = URL.createObjectURL(picture);
    const image = h('img', { class: 'preview', src: url, alt: texts.shotAlt });
    image.addEventListener('load', () => deps.resized(), { once: true });
    clear(
      card,
      h('p', {}, texts.shotPreview),
      image,
      h(
        'div',
        { class: 'row' },
        choice(
          texts.shotSend,
          () => {
            deps.send(picture);
            URL.revokeObjectURL(url);
            card.remove();
          },
          true,
        ),
        choice(settings.defaultCancelBtnLabel || 'Cancel', () => {
          deps.answer('declined');
          URL.revokeObjectURL(url);
          done(texts.shotNotSent);
        }),
      ),
    );
    (card.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  ask();
  return card;
}
