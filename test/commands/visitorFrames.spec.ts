import { expect } from 'chai';
import { mailTranscript, rateConversation, updateVisitorInfo, visitorOnPage, visitorSeen } from '../../server/commands/visitorFrames';
import { eventually } from '../slack/helpers';
import { useChat } from './chat';

describe('visitorFrames', () => {
  const { server, at, conversation } = useChat();

  it('records when the visitor was last seen and on which page', async () => {
    const { visitorId } = await conversation();
    const before = Date.now();
    await visitorSeen(server.models, visitorId);
    await visitorOnPage(server.models, visitorId, { url: 'https://shop.example/cart', title: 'Cart' });
    const visitor = await server.models.Visitor.findById(visitorId);
    expect(visitor?.lastSeenAt?.getTime()).to.be.at.least(before);
    expect(visitor).to.deep.include({ currentPage: 'https://shop.example/cart', pageTitle: 'Cart' });
  });

  it('stores the name and e-mail the visitor gives and the privacy acceptance, and updates the thread header', async () => {
    const { visitorId } = await conversation();
    await updateVisitorInfo(server.parley.relay, visitorId, { name: 'Erin Renamed', email: 'erin2@visitor.test', acceptedPrivacy: true });
    const visitor = await server.models.Visitor.findById(visitorId);
    expect(visitor).to.deep.include({ name: 'Erin Renamed', email: 'erin2@visitor.test' });
    expect(visitor?.acceptedPrivacyAt).to.be.instanceOf(Date);
    await eventually(async () => {
      const header = server.slack.state.channelMessages(at.widget.channel).find((m) => m.ts === at.chat.threadTs);
      expect(JSON.stringify(header)).to.include('Erin Renamed');
    });
  });

  it("rates the visitor's latest conversation with its feedback", async () => {
    const { visitorId } = await conversation();
    const ce = await at.widget.widget();
    await rateConversation(server.parley.relay, { visitorId, ce, rating: 'down', feedback: 'too slow' });
    expect(await conversation()).to.deep.include({ rating: 'down', feedback: 'too slow' });
  });

  it('mails the transcript to the address the visitor gives', async () => {
    const { visitorId } = await conversation();
    const ce = await at.widget.widget();
    await mailTranscript(server.parley.relay, { visitorId, ce, email: 'copy@visitor.test' });
    await eventually(async () => expect((await server.outbox.latestTo('copy@visitor.test'))?.text).to.include('Hello, is anyone there?'));
    expect((await conversation()).transcriptSentTo).to.equal('copy@visitor.test');
  });
});
