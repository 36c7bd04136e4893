import { WebClient } from '@slack/web-api';
import { expect } from 'chai';
import { ACME, ALICE, clientFor, installBot, quietLogger, type SandboxFixture, SUPPORT, startSandbox } from './helpers';

describe('Slack sandbox files', () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await startSandbox({ autoEvents: false });
  });
  afterEach(async () => {
    await f.close();
  });

  it('takes a file through uploadV2 (getUploadURLExternal, upload, completeUploadExternal) into a thread', async () => {
    const { client, inst } = installBot(f);
    await client.conversations.join({ channel: SUPPORT });
    const parent = await client.chat.postMessage({ channel: SUPPORT, text: 'Chat with Jane' });
    const bytes = Buffer.from('%PDF-1.4 visitor invoice');
    const res = await client.filesUploadV2({
      channel_id: SUPPORT,
      thread_ts: parent.ts as string,
      file: bytes,
      filename: 'invoice.pdf',
      title: 'Invoice',
      initial_comment: 'Jane sent a file',
    });
    expect(res.ok).to.equal(true);
    expect(f.sandbox.state.callsOf('files.getUploadURLExternal')).to.have.length(1);
    expect(f.sandbox.state.callsOf('files.completeUploadExternal')).to.have.length(1);

    const reply = f.sandbox.state.replies(SUPPORT, parent.ts as string)[0];
    expect(reply).to.include({ text: 'Jane sent a file', user: inst.botUserId });
    const fileId = reply.files?.[0] as string;
    const info = await client.files.info({ file: fileId });
    expect(info.file).to.include({
      id: fileId,
      name: 'invoice.pdf',
      title: 'Invoice',
      mimetype: 'application/pdf',
      filetype: 'pdf',
      size: bytes.length,
    });
    expect(info.file?.channels).to.deep.equal([SUPPORT]);

    const replies = await client.conversations.replies({ channel: SUPPORT, ts: parent.ts as string });
    expect(replies.messages?.[1].files?.[0]).to.include({ id: fileId, name: 'invoice.pdf' });
  });

  it('serves url_private only with a bearer token of the workspace, like Slack', async () => {
    const { client, inst } = installBot(f);
    await client.conversations.join({ channel: SUPPORT });
    await client.filesUploadV2({ channel_id: SUPPORT, file: Buffer.from('hello file'), filename: 'note.txt' });
    const file = f.sandbox.state.files[0];
    const info = await client.files.info({ file: file.id });
    const url = info.file?.url_private as string;

    const withToken = await fetch(url, { headers: { authorization: `Bearer ${inst.botToken}` } });
    expect(withToken.status).to.equal(200);
    expect(withToken.headers.get('content-type')).to.contain('text/plain');
    expect(await withToken.text()).to.equal('hello file');

    const anonymous = await fetch(url, { redirect: 'manual' });
    expect(anonymous.status).to.equal(302);
    const followed = await fetch(url);
    expect(followed.headers.get('content-type')).to.contain('text/html');
  });

  it('requires files:write to upload and files:read to read', async () => {
    const { client } = installBot(f, ['chat:write', 'channels:join']);
    const err = await client.files
      .getUploadURLExternal({ filename: 'a.txt', length: 3 })
      .catch((e: { data: { error: string; needed: string } }) => e.data);
    expect(err).to.include({ error: 'missing_scope', needed: 'files:write' });
    const info = await client.files.info({ file: 'F123' }).catch((e: { data: { error: string; needed: string } }) => e.data);
    expect(info).to.include({ error: 'missing_scope', needed: 'files:read' });
  });

  it('refuses to complete an upload whose bytes never arrived', async () => {
    const { client } = installBot(f);
    const url = await client.files.getUploadURLExternal({ filename: 'a.txt', length: 3 });
    const err = await client.files
      .completeUploadExternal({ files: [{ id: url.file_id as string }], channel_id: SUPPORT })
      .catch((e: { data: { error: string } }) => e.data);
    expect(err.error).to.equal('file_upload_not_found');
  });

  it('stores raw uploads byte for byte whatever their content type', async () => {
    const { client } = installBot(f);
    await client.conversations.join({ channel: SUPPORT });
    const json = '{"visitor":"Jane","items":[1,2,3]}';
    const url = await client.files.getUploadURLExternal({ filename: 'data.json', length: json.length });
    const up = await fetch(url.upload_url as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
    expect(await up.text()).to.equal(`OK - ${json.length}`);
    await client.files.completeUploadExternal({ files: [{ id: url.file_id as string }], channel_id: SUPPORT });
    expect(Buffer.from(f.sandbox.state.file(url.file_id as string)?.contentBase64 ?? '', 'base64').toString()).to.equal(json);
  });

  it('refuses to share into a channel the bot is not in', async () => {
    const { client } = installBot(f);
    const url = await client.files.getUploadURLExternal({ filename: 'a.txt', length: 3 });
    await fetch(url.upload_url as string, { method: 'POST', body: 'abc' });
    const err = await client.files
      .completeUploadExternal({ files: [{ id: url.file_id as string }], channel_id: SUPPORT })
      .catch((e: { data: { error: string } }) => e.data);
    expect(err.error).to.equal('not_in_channel');
  });

  it('shares a file a person uploads on the operator page as a file_share message event and a file_shared event', async () => {
    await f.close();
    f = await startSandbox();
    const { client } = installBot(f);
    await client.conversations.join({ channel: SUPPORT });
    const res = await fetch(`${f.baseUrl}/operator/api/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        team: ACME,
        user: ALICE,
        channel: SUPPORT,
        name: 'screenshot.png',
        contentBase64: Buffer.from('png-bytes').toString('base64'),
      }),
    });
    expect(res.status).to.equal(200);
    await f.sandbox.settled();
    const event = f.app.received
      .map((r) => (JSON.parse(r.body) as { event: Record<string, unknown> }).event)
      .find((e) => e.subtype === 'file_share');
    expect(event).to.include({ user: ALICE, channel: SUPPORT });
    const file = (event!.files as Array<{ url_private: string; mimetype: string }>)[0];
    expect(file.mimetype).to.equal('image/png');
    const bytes = await fetch(file.url_private, { headers: { authorization: `Bearer ${f.sandbox.state.installation(ACME)?.botToken}` } });
    expect(await bytes.text()).to.equal('png-bytes');
    const shared = f.app.received
      .map((r) => (JSON.parse(r.body) as { event: Record<string, unknown> }).event)
      .find((e) => e.type === 'file_shared');
    expect(shared).to.deep.include({ user_id: ALICE, channel_id: SUPPORT, file_id: (event!.files as Array<{ id: string }>)[0]?.id });
  });

  it('completes an upload once when the WebClient retries through a Slack outage', async () => {
    const { inst } = installBot(f);
    await clientFor(f, inst.botToken).conversations.join({ channel: SUPPORT });
    f.sandbox.state.failNext('files.completeUploadExternal', 1, 500);
    const retrying = new WebClient(inst.botToken, {
      slackApiUrl: f.sandbox.apiUrl,
      retryConfig: { retries: 1, minTimeout: 5, maxTimeout: 10 },
      logger: quietLogger,
    });
    await retrying.filesUploadV2({ channel_id: SUPPORT, content: 'plain text body', filename: 'body.txt' });
    expect(f.sandbox.state.callsOf('files.completeUploadExternal').map((c) => c.status)).to.deep.equal([500, 200]);
    expect(f.sandbox.state.files.filter((x) => x.completed)).to.have.length(1);
    expect(f.sandbox.state.files[0].size).to.equal('plain text body'.length);
    expect(f.sandbox.state.channelMessages(SUPPORT).filter((m) => m.files?.length)).to.have.length(1);
  });
});
