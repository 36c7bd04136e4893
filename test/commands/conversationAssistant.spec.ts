import { expect } from 'chai';
import type { ConversationAssistant } from '../../server/commands/conversationAssistant';
import { encodeResponse } from '../../server/commands/savedReplies';
import { addQuestionGroup } from '../slack/operatorHelpers';
import { useChat } from './chat';

describe('conversationAssistant (the relay’s)', () => {
  const { server, at, conversation, thread } = useChat();
  const assistant = (): ConversationAssistant => server.parley.relay.assistant;

  it('delivers a saved reply sent automatically: the widget shows it decoded, the thread gets it once (escaped)', async () => {
    const ce = await at.widget.widget();
    const sent = await assistant().deliverSavedReply(
      await conversation(),
      ce,
      { label: 'Hi', response: encodeResponse('Hello & welcome') },
      null,
    );
    expect(sent.text).to.equal('Hello & welcome');
    const frame = await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Hello & welcome');
    await thread((texts) => expect(texts.filter((t) => t.includes('Hello &amp; welcome'))).to.have.length(1));
  });

  it('asks the first question of a group', async () => {
    const group = await addQuestionGroup(server, at.widget, { label: 'Triage', shortcut: 't', question: 'Which one?', answers: ['A'] });
    await assistant().askFirstQuestion(await conversation(), await at.widget.widget(), group);
    expect((await at.chat.socket.next('question')).text).to.equal('Which one?');
  });
});
