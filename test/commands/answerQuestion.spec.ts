import { expect } from 'chai';
import { answerQuestion } from '../../server/commands/answerQuestion';
import { startQuestionGroup } from '../../server/commands/startQuestionGroup';
import { WidgetRefusal } from '../../server/errors';
import { addQuestionGroup } from '../slack/operatorHelpers';
import { useChat } from './chat';

describe('answerQuestion', () => {
  const { server, at, conversation, thread } = useChat();
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as WidgetRefusal,
    );

  it('puts the picked answer in the thread and ends the group; answers to no waiting question are refused (bad_frame)', async () => {
    await addQuestionGroup(server, at.widget, {
      label: 'Triage',
      shortcut: 'triage',
      question: 'Sales or support?',
      answers: ['Sales', 'Support'],
    });
    const group = await startQuestionGroup(server.parley.relay, { conversationId: at.chat.id, shortcut: 'triage' });
    const question = await at.chat.socket.next('question');
    const visitorId = (await conversation()).visitorId;
    const support = question.answers[1]?.nodeId ?? '';
    for (const wrong of [
      { groupUid: group.uid, nodeId: 'nope' },
      { groupUid: 'other', nodeId: support },
      { groupUid: group.uid, nodeId: question.nodeId },
    ]) {
      const error = await refusal(answerQuestion(server.parley.relay, visitorId, wrong));
      expect(error).to.be.instanceOf(WidgetRefusal);
      expect(error?.code).to.equal('bad_frame');
    }
    await answerQuestion(server.parley.relay, visitorId, { groupUid: group.uid, nodeId: support });
    await thread((texts) => {
      expect(texts.join('\n')).to.include('Sales or support? → *Support*');
      expect(texts.join('\n')).to.include('Question group “Triage” finished.');
    });
    // Answered once: a second click finds no question waiting.
    expect(await refusal(answerQuestion(server.parley.relay, visitorId, { groupUid: group.uid, nodeId: support }))).to.be.instanceOf(
      WidgetRefusal,
    );
  });
});
