/**
 * The "Continue the chat" link of a mail of unseen replies, opened in another browser: its resume token is exchanged
 * (POST /widget/api/{uuid}/resume) for a visitor token of the conversation's visitor, which resumes the conversation
 * with its history; an expired, changed or foreign token, and a verified visitor's, are refused with a reason.
 */
import { expect } from 'chai';
import request from 'supertest';
import { resumeConversation } from '../../server/commands/resumeConversation';
import { readResumeToken, resumeToken } from '../../server/conversations/mailTokens';
import { openUrl } from '../../server/relay/unseenMail';
import { type Waiting, waitingConversation } from '../inbound/helpers';
import { setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

const DAY = 24 * 60 * 60_000;

describe('resumeConversation', () => {
  const server = useRelayServer();
  let waiting: Waiting;
  beforeEach(async () => {
    waiting = await waitingConversation(server);
  });
  const tokenFor = async (expiresAt: Date) => {
    const c = await server.models.Conversation.findById(waiting.conversationId).lean();
    if (!c) throw new Error('no conversation');
    return resumeToken(server.config.jwtSecret, { conversationId: c._id, visitorId: c.visitorId }, expiresAt);
  };
  const exchange = (uuid: string, token: string) => request(server.url).post(`/widget/api/${uuid}/resume`).send({ token });

  it('gives another browser a token of its own that resumes the conversation with its history', async () => {
    const token = await tokenFor(new Date(Date.now() + 7 * DAY));
    const answer = await exchange(waiting.widget.uuid, token).expect(200);
    expect(answer.body.conversationId).to.equal(String(waiting.conversationId));
    expect(answer.body.visitorToken).to.be.a('string').and.not.equal(waiting.visitorToken);
    expect(JSON.stringify(answer.body)).to.not.include(token);
    const { socket, welcome } = await VisitorSocket.hello(server, waiting.widget.uuid, { visitorToken: answer.body.visitorToken });
    try {
      expect(welcome.conversation?.id).to.equal(String(waiting.conversationId));
      await socket.next('msg', (f) => f.message.text === 'Yes, in 3 days.');
    } finally {
      socket.close();
    }
    // The link's fragment carries the resume token, never a visitor token.
    const link = openUrl('https://shop.example.com/cart', token);
    expect(link).to.equal(`https://shop.example.com/cart#parley-open=${token}`);
    expect(readResumeToken(token)?.conversationId.toHexString()).to.equal(String(waiting.conversationId));
  });

  it('refuses an expired link (410), a changed one and one of another widget (400), giving no visitor token', async () => {
    const expired = await exchange(waiting.widget.uuid, await tokenFor(new Date(Date.now() - 1000))).expect(410);
    expect(expired.body).to.include({ Error: 'resume_expired' });
    const good = await tokenFor(new Date(Date.now() + 7 * DAY));
    // Seven days at most: a later expiry written into the token breaks its signature.
    const [id, , signature] = good.split('.');
    const longer = `${id}.${Math.floor((Date.now() + 365 * DAY) / 1000).toString(36)}.${signature}`;
    const flipped = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [longer, flipped, 'not-a-token', `${'0'.repeat(24)}.zzzz.${'a'.repeat(32)}`]) {
      const refused = await exchange(waiting.widget.uuid, token).expect(400);
      expect(refused.body).to.include({ Error: 'resume_invalid' });
    }
    const other = await setUpRelayWidget(server);
    expect((await exchange(other.uuid, good).expect(400)).body).to.include({ Error: 'resume_invalid' });
    const visitor = await server.models.Visitor.findOne({}).sort({ _id: -1 }).lean();
    expect(visitor?.deviceTokenHashes ?? []).to.have.length(0);
  });

  it('does not let another browser become a verified visitor: 403, sign in on the site instead', async () => {
    const c = await server.models.Conversation.findById(waiting.conversationId).lean();
    await server.models.Visitor.updateOne({ _id: c?.visitorId }, { $set: { verifiedUserId: 'user-42' } });
    const token = await tokenFor(new Date(Date.now() + 7 * DAY));
    const refused = await exchange(waiting.widget.uuid, token).expect(403);
    expect(refused.body).to.include({ Error: 'resume_verified' });
    let thrown: unknown;
    await resumeConversation({ models: server.models, secret: server.config.jwtSecret }, { uuid: waiting.widget.uuid, token }).catch(
      (error: unknown) => {
        thrown = error;
      },
    );
    expect(thrown).to.have.property('status', 403);
    expect((await server.models.Visitor.findById(c?.visitorId).lean())?.deviceTokenHashes).to.deep.equal([]);
  });
});
