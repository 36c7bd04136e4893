import { expect } from 'chai';
import { uploadVisitorFile } from '../../server/commands/uploadVisitorFile';
import type { ValidationError } from '../../server/errors';
import { VisitorSocket } from '../relay/helpers';
import { useChat } from './chat';

describe('uploadVisitorFile', () => {
  const { server, at } = useChat();
  const multipart = async (file: Blob, name: string, clientId?: string) => {
    const form = new FormData();
    form.set('file', file, name);
    if (clientId) form.set('clientId', clientId);
    const request = new Request('http://x.test', { method: 'POST', body: form });
    return { contentType: request.headers.get('content-type') ?? '', body: Buffer.from(await request.arrayBuffer()) };
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as ValidationError,
    );

  it("stores the visitor's file in their conversation and shows it in the widget", async () => {
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: { enableFileUploads: true } });
    const { socket, welcome } = await VisitorSocket.hello(server, at.widget.uuid);
    try {
      const upload = await multipart(new Blob(['hello file'], { type: 'text/plain' }), 'notes.txt', 'c_upload_0001');
      const stored = await uploadVisitorFile(server.parley.relay, { uuid: at.widget.uuid, visitorToken: welcome.visitorToken, ...upload });
      expect(stored).to.deep.include({ name: 'notes.txt', size: 10, mimetype: 'text/plain', source: 'visitor' });
      const linked = await server.models.WidgetFile.findById(stored._id);
      expect(linked?.conversationId).to.not.equal(null);
      const frame = await socket.next('msg', (f) => (f.message.files ?? []).length > 0);
      expect(frame.message.files?.[0]?.name).to.equal('notes.txt');
    } finally {
      socket.close();
    }
  });

  it('refuses an unknown widget, uploads turned off, an unknown visitor and a body that is not a form, with the widget’s codes', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, at.widget.uuid);
    socket.close();
    const upload = await multipart(new Blob(['x']), 'x.txt');
    const visitorToken = welcome.visitorToken;
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: { enableFileUploads: false } });
    expect((await refusal(uploadVisitorFile(server.parley.relay, { uuid: 'nope', visitorToken, ...upload })))?.code).to.equal(
      'unknown_widget',
    );
    expect((await refusal(uploadVisitorFile(server.parley.relay, { uuid: at.widget.uuid, visitorToken, ...upload })))?.code).to.equal(
      'uploads_disabled',
    );
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: { enableFileUploads: true } });
    const stranger = await refusal(
      uploadVisitorFile(server.parley.relay, { uuid: at.widget.uuid, visitorToken: 'x'.repeat(32), ...upload }),
    );
    expect(stranger?.message).to.equal('Start the chat before sending a file.');
    const notForm = await refusal(
      uploadVisitorFile(server.parley.relay, {
        uuid: at.widget.uuid,
        visitorToken,
        contentType: 'application/json',
        body: Buffer.from('{}'),
      }),
    );
    expect(notForm?.code).to.equal('bad_frame');
    expect(await server.models.WidgetFile.countDocuments({ ceId: at.widget.ceId })).to.equal(0);
  });
});
