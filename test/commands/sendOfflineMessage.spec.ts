import { expect } from 'chai';
import { sendOfflineMessage } from '../../server/commands/sendOfflineMessage';
import { eventually } from '../slack/helpers';
import { useChat } from './chat';

describe('sendOfflineMessage', () => {
  const { server, at } = useChat();

  it("stores the message, mails it to the widget's owner (reply-to the visitor, escaped) and posts it in the channel", async () => {
    await server.models.ChatEndpoint.updateOne(
      { _id: at.widget.ceId },
      {
        $set: {
          sendOfflineMessagesToEmail: true,
          sendOfflineMessagesToSlack: true,
          includeVisitorInfoInEmails: true,
          offlineEmailSubject: 'Offline!',
        },
      },
    );
    const ce = await at.widget.widget();
    const owner = await server.models.User.findById(ce.userId);
    await sendOfflineMessage(
      server.parley.relay,
      ce,
      {
        name: 'Olga <b>',
        email: 'olga@visitor.test',
        message: 'Call me <script>x</script>\nplease',
        page: { url: 'https://shop.example/p', title: 'P', referrer: '' },
      },
      { country: 'DE' },
    );
    const stored = await server.models.OfflineMessage.findOne({ ceId: ce._id, email: 'olga@visitor.test' });
    expect(stored?.message).to.equal('Call me <script>x</script>\nplease');
    await eventually(async () => {
      const mail = await server.outbox.latestTo(owner?.email ?? '');
      expect(mail?.subject).to.equal('Offline!');
      expect(mail?.replyTo).to.deep.equal({ name: 'Olga <b>', address: 'olga@visitor.test' });
      expect(mail?.html).to.include('Call me &lt;script&gt;x&lt;/script&gt;<br>please');
      expect(mail?.text).to.include('Page: https://shop.example/p');
    });
    await eventually(async () => {
      const posts = server.slack.state.channelMessages(at.widget.channel).map((m) => m.text ?? '');
      expect(posts.join('\n')).to.include('olga@visitor.test');
    });
  });

  it('neither mails nor posts when the widget sends offline messages nowhere, but keeps them', async () => {
    await server.models.ChatEndpoint.updateOne(
      { _id: at.widget.ceId },
      { $set: { sendOfflineMessagesToEmail: false, sendOfflineMessagesToSlack: false } },
    );
    const ce = await at.widget.widget();
    await sendOfflineMessage(server.parley.relay, ce, { email: 'quiet@visitor.test', message: 'hello' }, { country: '' });
    expect(await server.models.OfflineMessage.exists({ ceId: ce._id, email: 'quiet@visitor.test' })).to.not.equal(null);
    expect(await server.models.OutboxJob.countDocuments({ 'payload.text': { $regex: 'quiet@visitor.test' } })).to.equal(0);
  });
});
