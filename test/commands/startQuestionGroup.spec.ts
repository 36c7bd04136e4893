import { expect } from 'chai';
import { Types } from 'mongoose';
import { startQuestionGroup } from '../../server/commands/startQuestionGroup';
import { NotFoundError, PaymentRequiredError, ValidationError } from '../../server/errors';
import { addQuestionGroup } from '../slack/operatorHelpers';
import { useChat } from './chat';
import { payingAfterTrial } from './helpers';

describe('startQuestionGroup', () => {
  const { server, at, thread } = useChat();
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as Error,
    );

  it('asks the visitor the first question of the group named by its shortcut, and notes it in the thread', async () => {
    await addQuestionGroup(server, at.widget, {
      label: 'Triage',
      shortcut: 'triage',
      question: 'Sales or support?',
      answers: ['Sales', 'Support'],
    });
    const group = await startQuestionGroup(server.parley.relay, { conversationId: at.chat.id, shortcut: ' triage ' });
    expect(group.label).to.equal('Triage');
    const question = await at.chat.socket.next('question');
    expect(question).to.include({ text: 'Sales or support?', groupUid: group.uid });
    expect(question.answers.map((a) => a.text)).to.deep.equal(['Sales', 'Support']);
    await thread((texts) => expect(texts.join('\n')).to.include('Question group “Triage” started.'));
  });

  it('refuses an unknown conversation or group, nothing named, a plan without question groups and an ended conversation', async () => {
    // After the trial (which has every Business feature, question groups included), on Basic.
    await server.stripe.settled();
    await payingAfterTrial(server.models, (await at.widget.widget()).accountId);
    expect(await refusal(startQuestionGroup(server.parley.relay, { conversationId: 'nope', shortcut: 'x' }))).to.be.instanceOf(
      NotFoundError,
    );
    expect(
      await refusal(startQuestionGroup(server.parley.relay, { conversationId: String(new Types.ObjectId()), shortcut: 'x' })),
    ).to.be.instanceOf(NotFoundError);
    expect(await refusal(startQuestionGroup(server.parley.relay, { conversationId: at.chat.id, shortcut: 'x' }))).to.be.instanceOf(
      PaymentRequiredError,
    );
    await addQuestionGroup(server, at.widget, { label: 'Triage', shortcut: 'triage', question: 'Q?', answers: ['A'] });
    expect((await refusal(startQuestionGroup(server.parley.relay, { conversationId: at.chat.id, shortcut: '  ' })))?.message).to.equal(
      'Say which question group to start (its shortcut).',
    );
    expect((await refusal(startQuestionGroup(server.parley.relay, { conversationId: at.chat.id, shortcut: 'nope' })))?.message).to.equal(
      'No question group with the shortcut “nope”.',
    );
    await server.models.Conversation.updateOne({ _id: at.chat.id }, { $set: { status: 'ended' } });
    const ended = await refusal(startQuestionGroup(server.parley.relay, { conversationId: at.chat.id, shortcut: 'triage' }));
    expect(ended).to.be.instanceOf(ValidationError);
    expect(ended?.message).to.equal('This conversation has ended; the question group was not started.');
  });
});
