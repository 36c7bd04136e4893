import { expect } from 'chai';
import type { Types } from 'mongoose';
import { tagConversation } from '../../server/commands/tagConversation';
import { ALICE, BOB, eventually } from '../relay/helpers';
import { useChat } from './chat';

describe('tagConversation', () => {
  const { server, at, conversation, thread } = useChat();
  const events = async (id: Types.ObjectId) =>
    (await server.models.InboxEvent.find({ conversationId: id }).sort({ _id: 1 }).lean()).map((e) => `${e.kind} ${e.tag} ${e.byId}`);

  it('adds and removes tags once each under concurrent changes, records each, and notes them in the thread', async () => {
    const c = await conversation();
    const relay = server.parley.relay;
    // Two operators add overlapping tags at the same moment: each tag is added once, by whoever came first.
    const [a, b] = await Promise.all([
      tagConversation(relay, c._id, { add: ['billing', 'refund'] }, ALICE),
      tagConversation(relay, c._id, { add: ['Refund', 'bug'] }, BOB),
    ]);
    expect([...a.added, ...b.added].sort()).to.deep.equal(['billing', 'bug', 'refund']);
    const stored = (await server.models.Conversation.findById(c._id))?.tags ?? [];
    expect(stored.slice().sort()).to.deep.equal(['billing', 'bug', 'refund']);
    expect(await events(c._id)).to.have.length(3);
    const again = await tagConversation(relay, c._id, { add: ['billing'] }, ALICE);
    expect(again.added).to.deep.equal([]);
    const removed = await tagConversation(relay, c._id, { set: ['bug', 'billing'] }, ALICE);
    expect(removed).to.deep.include({ removed: ['refund'], added: [] });
    expect((await events(c._id)).at(-1)).to.equal(`untagged refund ${ALICE}`);
    await thread((texts) => expect(texts.join('\n')).to.include('removed the tag `refund`'));
    await eventually(async () => {
      const header = server.slack.state.message(at.widget.channel, at.chat.threadTs);
      expect(JSON.stringify(header?.blocks)).to.match(/\*Tags:\* `(billing` `bug|bug` `billing)`/);
    });
  });
});
