import { WebClient } from '@slack/web-api';
import { expect } from 'chai';
import request from 'supertest';
import { MAX_UPLOAD_BYTES } from '../../server/shared/widget-constants';
import { slackSignature } from '../slack/helpers';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('files in conversations', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const threadTs = async () => {
    let ts = '';
    await eventually(async () => {
      ts = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
      expect(ts).to.not.equal('');
    });
    return ts;
  };
  const upload = (token: string, name: string, bytes: Buffer) =>
    request(server.url)
      .post(`/widget/api/${widget.uuid}/files`)
      .set('X-Visitor-Token', token)
      .attach('file', bytes, { filename: name, contentType: 'image/png' });

  it('uploads a visitor file into the thread and serves it back only to that visitor', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'here is a screenshot');
    const bytes = Buffer.from('\x89PNG fake screenshot bytes');
    const res = await upload(welcome.visitorToken, 'screen.png', bytes).expect(200);
    expect(res.body).to.include({ name: 'screen.png', size: bytes.length, mimetype: 'image/png' });
    const ts = await threadTs();
    await eventually(async () => {
      const posted = server.slack.state.files.find((f) => f.name === 'screen.png' && f.channels.includes(widget.channel));
      expect(posted?.contentBase64).to.equal(bytes.toString('base64'));
    });
    expect(server.slack.state.replies(widget.channel, ts).some((m) => (m.files ?? []).length > 0)).to.equal(true);
    const path = new URL(res.body.url as string).pathname;
    const got = await request(server.url)
      .get(path)
      .query({ v: welcome.visitorToken })
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).to.equal(0);
    const other = await VisitorSocket.hello(server, widget.uuid);
    await request(server.url).get(path).query({ v: other.welcome.visitorToken }).expect(404);
    await request(server.url).get(path).expect(404);
    socket.close();
    other.socket.close();
  });

  it('answers 400 uploads_disabled when the widget does not take files', async () => {
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { enableFileUploads: false } });
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    const res = await upload(welcome.visitorToken, 'a.png', Buffer.from('x')).expect(400);
    expect(res.body.Error).to.equal('uploads_disabled');
    socket.close();
  });

  it('answers 400 too_large, with CORS headers the widget can read, for a file over the limit, and stores nothing', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    const origin = 'https://shop.example';
    const over = await upload(welcome.visitorToken, 'big.png', Buffer.alloc(MAX_UPLOAD_BYTES + 1))
      .set('Origin', origin)
      .expect(400);
    expect(over.body).to.deep.equal({ Message: 'Files are limited to 10 MB.', Error: 'too_large' });
    expect(over.headers['access-control-allow-origin']).to.equal(origin);
    // Past what the body parser reads at all: the same code.
    const huge = await upload(welcome.visitorToken, 'huge.png', Buffer.alloc(MAX_UPLOAD_BYTES + 256 * 1024)).expect(400);
    expect(huge.body.Error).to.equal('too_large');
    expect(await server.models.WidgetFile.countDocuments({ ceId: widget.ceId })).to.equal(0);
    socket.close();
  });

  it('answers 400 bad_frame for a body that is not multipart, a form without a file, and a visitor who never started a chat', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    const post = () => request(server.url).post(`/widget/api/${widget.uuid}/files`).set('X-Visitor-Token', welcome.visitorToken);
    const json = await post().send({ file: 'x' }).expect(400);
    expect(json.body).to.deep.equal({ Message: 'Send the file as multipart/form-data in the field "file".', Error: 'bad_frame' });
    const noFile = await post().field('note', 'hello').expect(400);
    expect(noFile.body).to.deep.equal({ Message: 'Send the file in the field "file".', Error: 'bad_frame' });
    const stranger = await upload('a-token-nobody-was-ever-given', 'a.png', Buffer.from('x')).expect(400);
    expect(stranger.body).to.deep.equal({ Message: 'Start the chat before sending a file.', Error: 'bad_frame' });
    expect(await server.models.WidgetFile.countDocuments({ ceId: widget.ceId })).to.equal(0);
    socket.close();
  });

  it('answers 404 unknown_widget for a widget that does not exist, and 403 not_allowed_here for a refused origin', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    const unknown = await request(server.url)
      .post('/widget/api/no-such-widget/files')
      .set('X-Visitor-Token', welcome.visitorToken)
      .attach('file', Buffer.from('x'), { filename: 'a.png', contentType: 'image/png' })
      .expect(404);
    expect(unknown.body).to.deep.equal({ Message: 'This chat widget does not exist.', Error: 'unknown_widget' });
    const refused = await upload(welcome.visitorToken, 'a.png', Buffer.from('x')).set('Origin', 'null').expect(403);
    expect(refused.body.Error).to.equal('not_allowed_here');
    expect(await server.models.WidgetFile.countDocuments({ ceId: widget.ceId })).to.equal(0);
    socket.close();
  });

  it('delivers an operator upload in the thread through Parley, not a Slack URL', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'can you send the invoice?');
    const ts = await threadTs();
    // The file is uploaded (not shared), then Slack's file_share event of Alice's message in the thread arrives.
    const bot = new WebClient(server.slack.state.installation(ACME)?.botToken, { slackApiUrl: server.slack.apiUrl });
    const uploaded = await bot.filesUploadV2({ file: Buffer.from('%PDF invoice'), filename: 'invoice.pdf' });
    const fileId = (uploaded.files as { files?: { id?: string }[] }[])[0]?.files?.[0]?.id;
    expect(fileId).to.be.a('string');
    const body = JSON.stringify({
      token: 'x',
      team_id: ACME,
      api_app_id: server.slack.appId,
      type: 'event_callback',
      event_id: `EvFILE${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'message',
        subtype: 'file_share',
        user: ALICE,
        text: 'Here you go',
        files: [{ id: fileId, name: 'invoice.pdf', mimetype: 'application/pdf', size: 12 }],
        channel: widget.channel,
        ts: `${Math.floor(Date.now() / 1000)}.000300`,
        thread_ts: ts,
      },
    });
    await request(server.url)
      .post('/slack/events')
      .type('json')
      .set(slackSignature(server.config.slack.signingSecret, body))
      .send(body)
      .expect(200);
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Here you go');
    const file = frame.message.files?.[0];
    expect(file?.name).to.equal('invoice.pdf');
    expect(file?.url.startsWith(`${server.url}/widget/files/`)).to.equal(true);
    const got = await request(server.url)
      .get(new URL(file?.url ?? '').pathname)
      .query({ v: welcome.visitorToken })
      .expect(200);
    expect(got.headers['content-disposition']).to.include('attachment');
    expect(String(got.body instanceof Buffer ? got.body : got.text)).to.include('%PDF invoice');
    // Gone from Slack: a plain 404 the browser shows, not an "attachment" download of the error.
    await server.models.WidgetFile.updateOne({ slackFileId: fileId }, { $set: { slackFileId: 'F0GONE0000' } });
    const gone = await request(server.url)
      .get(new URL(file?.url ?? '').pathname)
      .query({ v: welcome.visitorToken })
      .expect(404);
    expect(gone.body).to.deep.equal({ Message: 'File not found.', Error: 'not_found' });
    expect(gone.headers['content-disposition']).to.equal(undefined);
    socket.close();
  });
});
