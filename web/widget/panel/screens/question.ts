/** A step of a question group the operator (or an automatic group) started: the question and its answers. */

import { h } from '../dom';
import type { QuestionFrame } from '../reducer';

export function questionCard(question: QuestionFrame, onAnswer: (nodeId: string) => void): HTMLElement {
  const card = h('li', { class: 'card' }, h('p', {}, question.text));
  const buttons = question.answers.map((answer) =>
    h(
      'button',
      {
        type: 'button',
        class: 'choice',
        onclick: (event: Event) => {
          for (const b of buttons) b.disabled = true;
          (event.currentTarget as HTMLElement).classList.add('picked');
          onAnswer(answer.nodeId);
        },
      },
      answer.text,
    ),
  );
  card.append(h('div', { class: 'row' }, ...buttons));
  return card;
}
