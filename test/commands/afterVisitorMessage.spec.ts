import { expect } from 'chai';
import type { AfterVisitorMessageContext } from '../../server/commands/afterVisitorMessage';
import { afterVisitorMessage } from '../../server/commands/afterVisitorMessage';
import { encodeResponse } from '../../server/commands/savedReplies';
import type { StoredMessage } from '../../server/conversations/history';
import { say } from '../relay/helpers';
import { useChat } from './chat';

describe('afterVisitorMessage', () => {
  const { server, at, conversation } = useChat();
  const autoReply = async (planStripeId: string) => {
    const ce = await at.widget.widget();
    await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId } });
    await server.models.SavedReply.create({
      accountId: ce.accountId,
      ceId: ce._id,
      label: 'Price',
      response: encodeResponse('Plans start at 9 €.'),
      shortcut: 'price',
      autoSend: true,
      triggerPhrases: 'price, how much',
    });
    server.parley.relay.autoReplies.changed(ce._id);
  };

  it('sends a matching automatic reply once per conversation, however often the visitor asks', async () => {
    await autoReply('parley_basic_monthly');
    const ctx: AfterVisitorMessageContext = server.parley.relay;
    await say(at.chat.socket, 'What is the price?');
    const reply = await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect(reply.message.text).to.equal('Plans start at 9 €.');
    // Run again for a stored message that matches: the reply was already sent in this conversation.
    const c = await conversation();
    const message = await server.models.Message.findOne({ conversationId: c._id, text: 'What is the price?' }).lean<StoredMessage>();
    if (!message) throw new Error('message not stored');
    await afterVisitorMessage(ctx, c, message);
    await say(at.chat.socket, 'how much again?');
    const replies = async () =>
      server.models.Message.countDocuments({ conversationId: c._id, from: 'operator', text: 'Plans start at 9 €.' });
    expect(await replies()).to.equal(1);
  });

  it('sends nothing for a message that matches no trigger phrase', async () => {
    await autoReply('parley_basic_monthly');
    await say(at.chat.socket, 'prices are high');
    const c = await conversation();
    const message = await server.models.Message.findOne({ conversationId: c._id, text: 'prices are high' }).lean<StoredMessage>();
    if (!message) throw new Error('message not stored');
    await afterVisitorMessage(server.parley.relay, c, message);
    expect(await server.models.Message.countDocuments({ conversationId: c._id, from: 'operator' })).to.equal(0);
  });
});
