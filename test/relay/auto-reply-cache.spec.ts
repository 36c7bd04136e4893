/**
 * The saved replies a widget sends by itself are kept in memory: visitor messages cost no database read for them,
 * and a change made through the API (as the console makes it) applies to the very next visitor message.
 */
import { expect } from 'chai';
import type { CommandStartedEvent } from 'mongodb';
import request from 'supertest';
import { AutoSendReplies, type SavedRepliesChanged } from '../../server/commands/autoSendReplies';
import { FAST_RELAY, startTestServer, useServer } from '../helpers/app';
import { type SetUp, say, setUpRelayWidget, VisitorSocket } from './helpers';

const READ_COMMANDS = new Set(['find', 'aggregate', 'count', 'distinct']);

describe('automatic saved replies kept in memory', () => {
  // Its database client reports every command it sends, so reads of saved replies can be counted.
  const server = useServer({ relay: FAST_RELAY }, (overrides) => startTestServer(overrides, { monitorCommands: true }));
  let widget: SetUp;
  let socket: VisitorSocket;
  let reads = 0;
  const countReads = (event: CommandStartedEvent) => {
    // The automatic replies' reads (their filter names autoSend); a new conversation's Suggested post reads the
    // widget's saved replies once on its own, which is not what this spec counts.
    const filter = event.command.filter as { autoSend?: unknown } | undefined;
    if (READ_COMMANDS.has(event.commandName) && event.command[event.commandName] === 'savedreplies' && filter?.autoSend !== undefined) {
      reads += 1;
    }
  };
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    server.connection.getClient().on('commandStarted', countReads);
  });
  afterEach(() => {
    server.connection.getClient().off('commandStarted', countReads);
    socket?.close();
  });

  const saveReply = async (body: Record<string, unknown>): Promise<string> => {
    const res = await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ autoSend: true, ...body })
      .expect(200);
    return res.body.id as string;
  };
  const deleteReply = (id: string) =>
    request(server.url)
      .delete(`/v1/chat_endpoints/${widget.ceId}/saved_replies/${id}`)
      .set('Authorization', `Bearer ${widget.token}`)
      .expect(200);
  const operatorTexts = () =>
    socket
      .msgs()
      .filter((f) => f.message.from === 'operator')
      .map((f) => f.message.text);
  const answered = (text: string) => socket.next('msg', (f) => f.message.from === 'operator' && f.message.text === text, 15_000);

  it('reads the widget’s saved replies from the database at most once for ten visitor messages', async () => {
    await saveReply({ label: 'Pricing', triggerPhrases: 'price', response: 'Plans start at 29 EUR.' });
    await saveReply({ label: 'Hours', triggerPhrases: 'opening hours', response: 'We are here 9 to 5.' });
    await saveReply({ label: 'Goodbye', triggerPhrases: 'bye', response: 'Thanks for dropping by!' });
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    reads = 0;
    const lines = [
      'hello',
      'what is the price?',
      'ok',
      'and your opening hours?',
      'hm',
      'let me think',
      'fine',
      'one more',
      'thanks',
      'bye',
    ];
    for (const line of lines) await say(socket, line);
    // Automatic replies follow the conversation's messages in order: the last one comes after all the others were looked at.
    await answered('Thanks for dropping by!');
    expect(operatorTexts()).to.deep.equal(['Plans start at 29 EUR.', 'We are here 9 to 5.', 'Thanks for dropping by!']);
    expect(reads).to.equal(1, 'one read, for the first message after the replies were saved');
  });

  it('sends what was last saved through the API from the very next visitor message on', async () => {
    await saveReply({ label: 'Welcome', triggerPhrases: 'hello', response: 'Welcome!' });
    const pricing = await saveReply({ label: 'Pricing', triggerPhrases: 'price', response: 'Plans start at 29 EUR.' });
    const hours = await saveReply({ label: 'Hours', triggerPhrases: 'opening hours', response: 'We are here 9 to 5.' });
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Ann' } }));
    // The widget's replies are in memory from here on.
    await say(socket, 'hello');
    await answered('Welcome!');

    await saveReply({ id: pricing, label: 'Pricing', triggerPhrases: 'price', response: 'Plans start at 19 EUR.' });
    await say(socket, 'what is the price?');
    await answered('Plans start at 19 EUR.');

    await deleteReply(hours);
    await say(socket, 'your opening hours?');
    await saveReply({ label: 'Refunds', triggerPhrases: 'refund', response: 'Refunds within 14 days.' });
    await say(socket, 'can I get a refund?');
    await answered('Refunds within 14 days.');
    // The deleted reply was not sent for the message before.
    expect(operatorTexts()).to.deep.equal(['Welcome!', 'Plans start at 19 EUR.', 'Refunds within 14 days.']);
  });

  it('tells the other processes which widget changed, and reads again after a change even while a read is under way', async () => {
    const signals: SavedRepliesChanged[] = [];
    const cache = new AutoSendReplies({ models: server.models, peers: { signal: (signal) => signals.push(signal) } });
    await saveReply({ label: 'Pricing', triggerPhrases: 'price', response: 'Plans start at 29 EUR.' });
    reads = 0;
    const responses = async () => (await cache.of(widget.ceId)).map((r) => r.response);
    const underWay = responses();
    await server.models.SavedReply.updateOne({ ceId: widget.ceId }, { $set: { response: 'Plans start at 19 EUR.' } });
    cache.changed(widget.ceId);
    expect(signals).to.deep.equal([{ kind: 'savedReplies', ceId: widget.ceId }]);
    expect(await responses()).to.deep.equal(['Plans start at 19 EUR.']);
    await underWay;
    expect(await responses()).to.deep.equal(['Plans start at 19 EUR.']);
    expect(reads).to.equal(2, 'one read before the change, one after, then none');

    // Another process's change: forgotten here, read again, nothing signalled back.
    await server.models.SavedReply.updateOne({ ceId: widget.ceId }, { $set: { autoSend: false } });
    cache.forget(widget.ceId);
    expect(await responses()).to.deep.equal([]);
    expect(signals).to.have.length(1);
    expect(reads).to.equal(3);
  });
});
