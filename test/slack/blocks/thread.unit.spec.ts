import { expect } from 'chai';
import { contextLine, threadPostMessage } from '../../../server/slack/blocks/thread';

describe("Block Kit of Parley's own thread posts", () => {
  it('shows a note as one small context line', () => {
    expect(threadPostMessage({ text: ':clipboard: Question group “Triage” started.', look: 'note' })).to.deep.equal(
      contextLine(':clipboard: Question group “Triage” started.'),
    );
  });

  it('shows a reminder as a full-size line, its text also the notification text', () => {
    const message = threadPostMessage({ text: '<!here> :alarm_clock: Tom has been waiting 31 seconds for an answer.', look: 'alert' });
    expect(message.text).to.equal('<!here> :alarm_clock: Tom has been waiting 31 seconds for an answer.');
    expect(message.blocks).to.deep.equal([
      { type: 'section', text: { type: 'mrkdwn', text: '<!here> :alarm_clock: Tom has been waiting 31 seconds for an answer.' } },
    ]);
  });

  it('shows a saved reply with the line saying who sent it under it, and never an empty section', () => {
    const message = threadPostMessage({ text: '', look: 'reply', footer: 'Saved reply “Shipping” sent by <@U1>' });
    expect(message.blocks).to.deep.equal([
      { type: 'section', text: { type: 'mrkdwn', text: ' ' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Saved reply “Shipping” sent by <@U1>' }] },
    ]);
  });
});
