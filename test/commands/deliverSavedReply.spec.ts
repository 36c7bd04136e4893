import { expect } from 'chai';
import { deliverSavedReply } from '../../server/commands/deliverSavedReply';
import { encodeResponse } from '../../server/commands/savedReplies';
import { ALICE } from '../relay/helpers';
import { useChat } from './chat';

describe('deliverSavedReply', () => {
  const { server, at, conversation, thread } = useChat();
  const alice = { slackUserId: ALICE, name: 'Alice Operator', avatarUrl: 'https://img.example/alice.png' };

  it('delivers a saved reply sent automatically: the widget shows it decoded, the thread gets it once (escaped), and nobody answered yet', async () => {
    const ce = await at.widget.widget();
    const sent = await deliverSavedReply(
      server.parley.relay,
      await conversation(),
      ce,
      { label: 'Hi', response: encodeResponse('Hello & welcome') },
      null,
    );
    expect(sent.text).to.equal('Hello & welcome');
    const frame = await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Hello & welcome');
    await thread((texts) => expect(texts.filter((t) => t.includes('Hello &amp; welcome'))).to.have.length(1));
    const after = await conversation();
    expect(after.firstResponseAt).to.equal(null);
    expect(after.lastOperatorMsgAt ?? null).to.equal(null);
  });

  it('delivers one an operator sent: the conversation is answered in their name, and the thread says who sent which reply', async () => {
    const ce = await at.widget.widget();
    await deliverSavedReply(
      server.parley.relay,
      await conversation(),
      ce,
      { label: 'Ship <times>', response: encodeResponse('Two days') },
      alice,
    );
    await at.chat.socket.next('msg', (f) => f.message.from === 'operator' && f.message.text === 'Two days');
    const after = await conversation();
    expect(after.firstResponseAt).to.be.instanceOf(Date);
    expect(after.agentSlackUserId).to.equal(ALICE);
    const posts = () => server.slack.state.replies(at.widget.channel, at.chat.threadTs).filter((m) => m.username === alice.name);
    await thread(() => expect(posts()).to.have.length(1));
    expect(JSON.stringify(posts()[0].blocks)).to.include(`Saved reply “Ship &lt;times&gt;” sent by <@${ALICE}>`);
  });
});
