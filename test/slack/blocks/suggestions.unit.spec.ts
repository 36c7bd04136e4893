import { expect } from 'chai';
import { articleSearchReply, editPastAnswerModal, suggestedMessage } from '../../../server/slack/blocks/suggestions';

const HOSTILE = '<!channel> & <https://evil.example|click> *bold*';

describe('suggestion blocks', () => {
  it('posts nothing when there is nothing to suggest', () => {
    expect(suggestedMessage('c1', { articles: [], replies: [], past: [] })).to.equal(null);
  });

  it('escapes what owners and visitors wrote, and keeps every text within Slack’s limits', () => {
    const long = `${HOSTILE} ${'word '.repeat(2000)}`;
    const message = suggestedMessage('c1', {
      articles: [
        {
          id: 'a1',
          title: long,
          snippet: `<mark>reset</mark> ${long.replace(/</g, '&lt;')}`,
          url: 'https://parley.example/help/u/reset?lang=en',
        },
      ],
      replies: [{ id: 'r1', label: HOSTILE, text: long }],
      past: [{ messageId: 'm1', number: 12, question: long, text: long }],
    });
    if (!message) throw new Error('expected a message');
    const json = JSON.stringify(message.blocks);
    expect(json).to.not.include('<!channel>').and.not.include('<https://evil.example');
    expect(json).to.include('&lt;!channel&gt; &amp;');
    expect(message.blocks.length).to.be.at.most(50);
    for (const block of message.blocks as { text?: { text: string }; elements?: { value?: string }[] }[]) {
      expect(block.text?.text.length ?? 0).to.be.at.most(3000);
    }
    expect(message.text).to.equal('Suggested for this question: 1 article, 1 saved reply, 1 past answer');
    // Each Send names the conversation and what to send; past answers also have Edit.
    expect(json).to.include('"value":"c1:a1"').and.include('"value":"c1:r1"').and.include('"value":"c1:m1"');
    expect(json).to.include('suggestion_edit_past');
  });

  it('lists /parley article hits with Send only while the conversation is open', () => {
    const hit = { id: 'a1', title: 'Reset', snippet: '', url: 'https://parley.example/help/u/reset?lang=en' };
    expect(JSON.stringify(articleSearchReply({ id: 'c1', number: 3, open: true }, 'reset', [hit]).blocks)).to.include(
      'suggestion_send_article',
    );
    const ended = articleSearchReply({ id: 'c1', number: 3, open: false }, 'reset', [hit]);
    expect(JSON.stringify(ended.blocks)).to.not.include('suggestion_send_article');
    expect(JSON.stringify(ended.blocks)).to.include('has ended');
  });

  it('opens the past answer for editing, within the widget’s message limit', () => {
    const modal = editPastAnswerModal({ conversationId: 'c1', messageId: 'm1', number: 4, text: 'x'.repeat(5000) });
    expect(modal.private_metadata).to.equal('c1:m1');
    const input = JSON.stringify(modal.blocks);
    expect(input).to.include('"max_length":4000');
    expect(input).to.include(`"initial_value":"${'x'.repeat(4000)}"`);
  });
});
