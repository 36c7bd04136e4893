import { expect } from 'chai';
import { queueThreadNote, queueThreadPost } from '../../server/commands/threadPosts';
import { useChat } from './chat';

describe('threadPosts', () => {
  const { server, at, conversation, thread } = useChat();

  it('posts in the conversation’s thread, in order, as the name and picture given', async () => {
    const c = await conversation();
    await queueThreadNote(server.parley.relay, c, 'first note');
    await queueThreadPost(server.parley.relay, c, {
      text: 'a reply',
      look: 'reply',
      username: 'Alice Operator',
      iconUrl: 'https://img.example/a.png',
    });
    await thread((texts) => {
      const mine = texts.filter((t) => t === 'first note' || t === 'a reply');
      expect(mine).to.deep.equal(['first note', 'a reply']);
    });
    const reply = server.slack.state.replies(at.widget.channel, at.chat.threadTs).find((m) => m.text === 'a reply');
    expect(reply).to.include({ username: 'Alice Operator', iconUrl: 'https://img.example/a.png' });
    // Nothing is shown to the visitor: these are Parley's notes for the operators.
    expect(at.chat.socket.msgs().map((m) => m.message.text)).to.not.include('first note');
  });
});
