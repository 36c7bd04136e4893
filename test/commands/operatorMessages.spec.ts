import { expect } from 'chai';
import {
  editOperatorMessage,
  recordAnswer,
  recordOperatorMessage,
  recordSystemLine,
  withdrawOperatorMessage,
} from '../../server/commands/operatorMessages';
import { ALICE } from '../relay/helpers';
import { useChat } from './chat';

describe('operatorMessages', () => {
  const { server, at, conversation } = useChat();
  const author = { name: 'Alice', avatarUrl: 'https://img.example/alice.png' };
  const reply = (text: string) => ({ text, html: '', author, slackUserId: ALICE });

  it('records the first answer: the widget gets it, the conversation is answered and names the agent; a later one does not rename', async () => {
    const first = await recordAnswer(server.parley.relay, await conversation(), reply('Hello there'));
    expect(first.first).to.equal(true);
    const frame = await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Hello there');
    expect(frame.message.author?.name).to.equal('Alice');
    const answered = await conversation();
    expect(answered.agentName).to.equal('Alice');
    expect(answered.firstResponseAt).to.be.instanceOf(Date);
    const second = await recordAnswer(server.parley.relay, await conversation(), {
      ...reply('More'),
      author: { name: 'Bob', avatarUrl: '' },
    });
    expect(second.first).to.equal(false);
    expect((await conversation()).agentName).to.equal('Alice');
  });

  it('records an operator line that answers nobody, and a system line', async () => {
    await recordOperatorMessage(server.parley.relay, await conversation(), reply('Automatic'));
    await at.chat.socket.next('msg', (f) => f.message.from === 'operator' && f.message.text === 'Automatic');
    await recordSystemLine(server.parley.relay, await conversation(), 'Alice joined');
    await at.chat.socket.next('msg', (f) => f.message.from === 'system' && f.message.text === 'Alice joined');
    expect((await conversation()).firstResponseAt).to.equal(null);
  });

  it('mirrors an edit to the widget, and a withdrawal takes the words out of the history', async () => {
    const { message } = await recordAnswer(server.parley.relay, await conversation(), reply('Typo here'));
    const stored = await server.models.Message.findById(message._id);
    if (!stored) throw new Error('not stored');
    await editOperatorMessage(server.parley.relay, await conversation(), stored, { text: 'Fixed', html: '' });
    const edit = await at.chat.socket.next('edit');
    expect(edit.text).to.equal('Fixed');
    await withdrawOperatorMessage(server.parley.relay, await conversation(), stored);
    await at.chat.socket.next('delete');
    const gone = await server.models.Message.findById(message._id).lean();
    expect(gone?.text).to.equal('');
    expect(gone?.deleted).to.equal(true);
    const edits = await server.models.Message.find({ targetId: message._id, kind: 'edit' }).lean();
    expect(edits.every((e) => e.text === '')).to.equal(true);
  });
});
