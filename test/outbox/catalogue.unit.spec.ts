/**
 * The outbox's job catalogue: each kind's rules as the engine reads them, and payloads checked by the compiler (the
 * `@ts-expect-error` lines fail the type check, part of `npm test`, the day a wrong payload compiles).
 */
import { expect } from 'chai';
import { JOB_RULES, type JobKind, type JobQueue } from '../../server/outbox/catalogue';

const kindsWhere = (test: (rules: (typeof JOB_RULES)[JobKind]) => boolean) =>
  (Object.keys(JOB_RULES) as JobKind[]).filter((kind) => test(JOB_RULES[kind])).sort();

describe('the outbox job catalogue', () => {
  it('paces every post into a Slack channel by its channel, and nothing else (a header update is a chat.update)', () => {
    expect(kindsWhere((r) => r.pace === 'channel')).to.deep.equal([
      'slack.channelPost',
      'slack.ephemeral',
      'slack.header',
      'slack.invite',
      'slack.react',
      'slack.reply',
      'slack.suggest',
      'slack.threadPost',
    ]);
  });

  it('gives up on webhooks and mails after 12 attempts, and never on a Slack call', () => {
    expect(kindsWhere((r) => r.maxAttempts === 12)).to.deep.equal(['mail', 'mail.unseen', 'webhook']);
    expect(kindsWhere((r) => r.maxAttempts === Number.POSITIVE_INFINITY).every((kind) => kind.startsWith('slack.'))).to.equal(true);
  });

  it('takes a kind with exactly its payload: a misspelt field, a missing one or a retired kind does not compile', async () => {
    const queued: string[] = [];
    const queue: JobQueue = {
      async enqueue(kind) {
        queued.push(kind);
      },
      poke() {},
    };
    await queue.enqueue('slack.react', 'k', { teamId: 'T1', channel: 'C1', ts: '1.0001', name: 'eyes' });
    // @ts-expect-error the reaction's field is `name`
    await queue.enqueue('slack.react', 'k', { teamId: 'T1', channel: 'C1', ts: '1.0001', emoji: 'eyes' });
    // @ts-expect-error a thread post says how it looks
    await queue.enqueue('slack.threadPost', 'k', { conversationId: 'c1', text: 'Hello' });
    // @ts-expect-error slack.note is retired (notes are slack.threadPost with the 'note' look)
    await queue.enqueue('slack.note', 'k', { teamId: 'T1', channel: 'C1', threadTs: '1.0001', text: 'a note' });
    // @ts-expect-error a webhook goes to a URL or a REST hook, not both
    await queue.enqueue('webhook', 'k', { url: 'https://example.com/hook', hookId: 'h1', body: {} });
    expect(queued).to.have.length(5);
  });
});
