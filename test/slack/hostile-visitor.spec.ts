/**
 * Everything a visitor types reaches Slack through escapeMrkdwn, wherever Parley places it: a hostile visitor
 * (name, e-mail, page, traits, messages, a file, the offline form, feedback) goes through every path that builds a
 * Slack payload from visitor input, and then every Web API call and response_url post Parley made is walked for
 * a live control sequence (a mention of @channel, @here, @everyone, a user, a user group or a channel, a disguised
 * link) or a typed entity that Slack would show decoded.
 */
import { expect } from 'chai';
import request from 'supertest';
import { ACME, ALICE, eventually, PAGE, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';
import { parley } from './operatorHelpers';

/** Every hostile string carries PWN, so a sequence Parley built from it is told from Parley's own mentions. */
const HOSTILE = {
  name: '<!channel> <@UPWN01> <!subteam^SPWN01|@ops> &lt;LITERAL PWN',
  title: '<https://evil.example/PWN|https://bank.example> <!here>',
  url: 'https://shop.example.com/p?x=<!everyone>&y=<https://evil.example/PWN|bank>',
  trait: '<!channel|PWN> <#CPWN01> &lt;LITERAL',
  message: '<!here|PWN> hi <https://evil.example/PWN|https://bank.example> &lt;LITERAL',
  feedback: '<!everyone> <@UPWN02> great &lt;LITERAL PWN',
  offlineName: '<!channel> PWN',
  offlineMessage: 'Call me <https://evil.example/PWN|https://bank.example> <!here> &lt;LITERAL',
  file: '<!channel>PWN.png',
};

/** Keys whose values Slack never reads as mrkdwn (identifiers, URLs, plain values). */
const NOT_MRKDWN = new Set([
  'username',
  'icon_url',
  'icon_emoji',
  'channel',
  'channel_id',
  'ts',
  'thread_ts',
  'user',
  'users',
  'value',
  'action_id',
  'block_id',
  'callback_id',
  'private_metadata',
  'external_id',
  'trigger_id',
  'view_id',
  'hash',
  'initial_value',
  'metadata',
  'url',
  'image_url',
  'alt_text',
  'filename',
  'title',
  'files',
  'response_type',
]);

/** Strings Slack parses as mrkdwn (message text, notification text, mrkdwn blocks, file comments), with where. */
function mrkdwnStrings(value: unknown, where: string, out: { where: string; text: string }[]): void {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && trimmed.length > 1) {
      try {
        mrkdwnStrings(JSON.parse(trimmed), where, out);
        return;
      } catch {
        // Not JSON: a string like any other.
      }
    }
    out.push({ where, text: value });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => mrkdwnStrings(v, `${where}[${i}]`, out));
    return;
  }
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    // Block Kit plain_text is shown as typed: Slack neither parses nor decodes it.
    if (object.type === 'plain_text') return;
    for (const [key, v] of Object.entries(object)) {
      if (NOT_MRKDWN.has(key)) continue;
      mrkdwnStrings(v, `${where}.${key}`, out);
    }
  }
}

/** What would be live in Slack: a special mention, or any <…> sequence built from visitor input. */
function liveSequences(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/<[^<>]*>/g)) {
    const inside = match[0];
    // A link's label may hold escaped visitor text; what makes a sequence live is its target, before the '|'.
    const target = inside.split('|')[0];
    if (/^<!(channel|here|everyone|subteam)/.test(inside) || target.includes('PWN')) found.push(inside);
  }
  // A typed "&lt;" must stay "&amp;lt;" so Slack shows what was typed, not "<".
  if (/(^|[^p])&lt;LITERAL/.test(text.replace(/&amp;lt;LITERAL/g, ''))) found.push('&lt;LITERAL decoded');
  return found;
}

describe('a hostile visitor in every Slack payload', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const configure = (config: Record<string, unknown>) =>
    request(server.url).put(`/v1/chat_endpoints/${widget.ceId}/update_config`).set('Authorization', `Bearer ${widget.token}`).send(config);

  for (const meta of ['compact', 'full'] as const) {
    it(`posts no live mention, link or decoded entity from visitor input (header ${meta})`, async () => {
      await configure({ metaInfoInMainChannel: meta, enableFileUploads: true, sendOfflineMessagesToSlack: true }).expect(200);
      const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid, {
        identity: { name: HOSTILE.name, email: 'pwn@visitor.test', traits: { plan: HOSTILE.trait } },
      });
      socket.send({ t: 'page', page: { url: HOSTILE.url, title: HOSTILE.title, referrer: '' } });
      await say(socket, HOSTILE.message);
      let threadTs = '';
      await eventually(async () => {
        threadTs = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
        expect(threadTs).to.not.equal('');
      });
      // A file with no text: Slack gets a comment naming the visitor.
      await request(server.url)
        .post(`/widget/api/${widget.uuid}/files`)
        .set('X-Visitor-Token', welcome.visitorToken)
        .attach('file', Buffer.from('\x89PNG bytes'), { filename: HOSTILE.file, contentType: 'image/png' })
        .expect(200);
      await eventually(async () => expect(server.slack.state.files.some((f) => f.channels.includes(widget.channel))).to.equal(true));
      // The pre-chat form changes the name again; the header is rebuilt.
      socket.send({ t: 'info', name: `${HOSTILE.name} 2` });
      // An operator looks at the visitor and at App Home while the chat waits, then answers.
      const header = server.slack.state.message(widget.channel, threadTs);
      await server.slack.sendBlockAction({
        teamId: ACME,
        userId: ALICE,
        actionId: 'conversation_visitor_info',
        message: { channelId: widget.channel, ts: header?.ts ?? threadTs },
      });
      await eventually(async () => expect(server.slack.state.calls.some((c) => c.method === 'views.open' && c.ok)).to.equal(true));
      await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
      await eventually(async () => expect(server.slack.state.calls.some((c) => c.method === 'views.publish')).to.equal(true));
      await parley(server, widget.channel, 'status');
      await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Hello there' });
      await socket.next('msg', (f) => f.message.from === 'operator');
      socket.send({ t: 'end' });
      await socket.next('ended');
      socket.send({ t: 'rate', rating: 'up', feedback: HOSTILE.feedback });
      await eventually(async () => {
        const parent = server.slack.state.message(widget.channel, threadTs);
        expect(JSON.stringify(parent?.blocks)).to.include('great');
      });
      // The offline form, which posts in the channel itself.
      await request(server.url)
        .post(`/widget/api/${widget.uuid}/offline`)
        .set('Origin', 'https://shop.example.com')
        .send({ name: HOSTILE.offlineName, email: 'pwn@visitor.test', message: HOSTILE.offlineMessage, page: PAGE })
        .expect(200);
      await eventually(async () =>
        expect(server.slack.state.channelMessages(widget.channel).some((m) => m.text.includes('Offline message'))).to.equal(true),
      );
      await server.slack.settled();
      socket.close();

      const strings: { where: string; text: string }[] = [];
      for (const call of server.slack.state.calls) mrkdwnStrings(call.args, call.method, strings);
      for (const post of server.slack.state.responses) mrkdwnStrings(post.body, 'response_url', strings);
      // The walk saw the visitor's input (escaped) in the header, the replies, the modal, the home and the offline post.
      const seen = strings.map((s) => s.text).join('\n');
      expect(seen).to.include('&lt;!channel&gt;').and.include('&lt;!here|PWN&gt;').and.include('&amp;lt;LITERAL');
      const live = strings.flatMap((s) =>
        liveSequences(s.text).map((seq) => `${s.where}: ${seq} in ${JSON.stringify(s.text.slice(0, 200))}`),
      );
      expect(live, live.join('\n')).to.deep.equal([]);
    });
  }
});
