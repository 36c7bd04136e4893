/**
 * A TCP relay between a spec's database client and the test store that can hold back the store's answer to one
 * command: the order in which two answers arrive, which a loaded store or network decides, set by the spec. Every
 * byte goes through unchanged; the held answer only arrives later, when the spec lets it go.
 */
import net from 'node:net';

export type HeldAnswers = {
  /** mongodb://127.0.0.1:<port>: the store, through the relay. */
  readonly uri: string;
  /**
   * Holds the answer to the next command sent through the relay whose bytes hold all of `marks` (e.g. a command's
   * name and its collection's), and calls `sent` as that command has gone on to the store. Resolves to a function
   * that lets the held answer go.
   */
  holdNext(marks: string[], sent: () => void): Promise<() => void>;
  close(): Promise<void>;
};

export async function heldAnswers(storeUri: string): Promise<HeldAnswers> {
  const target = new URL(storeUri);
  let waiting: { marks: Buffer[]; sent: () => void; held: (release: () => void) => void } | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const store = net.connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(store);
    /** Answers of the store held on this connection, until released. */
    let held: Buffer[] | undefined;
    client.on('data', (chunk: Buffer) => {
      store.write(chunk);
      const hold = waiting;
      if (!hold?.marks.every((mark) => chunk.includes(mark))) return;
      waiting = undefined;
      held = [];
      hold.held(() => {
        const answers = held ?? [];
        held = undefined;
        for (const answer of answers) client.write(answer);
      });
      hold.sent();
    });
    store.on('data', (chunk: Buffer) => {
      if (held) held.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      client.destroy();
      store.destroy();
      sockets.delete(client);
      sockets.delete(store);
    };
    client.on('close', end);
    store.on('close', end);
    client.on('error', end);
    store.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address() as net.AddressInfo;
  return {
    uri: `mongodb://127.0.0.1:${address.port}`,
    holdNext(marks, sent) {
      return new Promise((resolve) => {
        waiting = { marks: marks.map((mark) => Buffer.from(mark)), sent, held: resolve };
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
