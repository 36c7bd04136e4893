/**
 * Slack's pace for one channel (about one post a second, short bursts) holds over the whole deployment: two Parley
 * processes posting visitors' lines into one channel, against the Slack sandbox with its real rate limits, share
 * one budget through Redis, so Slack never answers 429 — and every line still reaches its thread.
 */
import { expect } from 'chai';
import { FAST_PROCESS_CONFIG, type Stack, setUpWidgetAcross, startStack, type WidgetAcross } from '../helpers/processes';
import { eventually, say, VisitorSocket } from './helpers';

const METRICS_TOKEN = 'pace-spec-metrics-token-0123456789';
const VISITORS_EACH = 6;

describe("Slack's channel pace across processes", function () {
  this.timeout(240_000);
  let stack: Stack;
  let widget: WidgetAcross;
  const sockets: VisitorSocket[] = [];

  before(async () => {
    stack = await startStack({
      parleys: 2,
      redis: true,
      slackRateLimits: true,
      env: { METRICS_TOKEN },
      config: {
        ...FAST_PROCESS_CONFIG,
        // Slack's own pace, as in production; presence is not asked of Slack on a short timer here. With Redis the
        // processes hear of each other's jobs at once: the outbox's safety poll need not run every 50 ms.
        relay: { ...FAST_PROCESS_CONFIG.relay, slackPostsPerSecond: 1, slackBurst: 3, presenceRefreshMs: 3_600_000, outboxPollMs: 1000 },
      },
    });
    widget = await setUpWidgetAcross(stack);
  });
  after(async () => {
    for (const s of sockets) s.close();
    await stack?.close();
  });

  /** chat.postMessage calls a process made, by outcome, from its own /metrics. */
  const posts = async (url: string): Promise<Record<string, number>> => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^parley_slack_api_calls_total\{([^}]*)\} (\d+)/gm)) {
      if (!m[1].includes('method="chat.postMessage"')) continue;
      const outcome = /outcome="([^"]*)"/.exec(m[1])?.[1] ?? '';
      out[outcome] = (out[outcome] ?? 0) + Number(m[2]);
    }
    return out;
  };

  it('two processes posting into one channel stay within Slack’s pace: no 429, every line posted', async () => {
    const lines: string[] = [];
    await Promise.all(
      stack.parleys.flatMap((parley, p) =>
        Array.from({ length: VISITORS_EACH }, async (_, i) => {
          const { socket } = await VisitorSocket.hello(parley, widget.uuid, { identity: { name: `visitor ${p}.${i}` } });
          sockets.push(socket);
          for (const n of [1, 2]) {
            const line = `line ${n} of visitor ${p}.${i}`;
            await say(socket, line);
            lines.push(line);
          }
        }),
      ),
    );
    // Each conversation's header and its lines: every line ends up in Slack, at about a post a second (checked each
    // second: the threads' replies are read once every header is there).
    await eventually(
      async () => {
        const threads = (await stack.slack.channelMessages(widget.channel)).filter((m) => m.isBot && m.text.startsWith('Conversation #'));
        expect(threads).to.have.length(2 * VISITORS_EACH);
        const posted = (await Promise.all(threads.map((t) => stack.slack.threadReplies(widget.channel, t.ts)))).flat().map((r) => r.text);
        for (const line of lines)
          expect(
            posted.some((text) => text.includes(line)),
            line,
          ).to.equal(true);
      },
      180_000,
      1000,
    );
    const [a, b] = await Promise.all(stack.parleys.map((parley) => posts(parley.url)));
    expect(a.ok ?? 0).to.be.greaterThan(0, 'A posted');
    expect(b.ok ?? 0).to.be.greaterThan(0, 'B posted');
    expect({ a: a.http_429 ?? 0, b: b.http_429 ?? 0 }).to.deep.equal({ a: 0, b: 0 }, 'no 429 from Slack');
  });
});
