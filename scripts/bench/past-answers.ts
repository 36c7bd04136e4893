/**
 * What suggesting past answers costs a new conversation: a widget with PAST_CONVERSATIONS answered conversations in
 * the embedded database (its own process), then the first suggestion (which builds the widget's index) and many more
 * (the index kept): time per suggestion and database reads per suggestion.
 *
 *   npx tsx scripts/bench/past-answers.ts
 */
import mongoose, { Types } from 'mongoose';
import { PAST_CONVERSATIONS, PastAnswers } from '../../server/answers/pastAnswers';
import { createModels } from '../../server/models';
import { startDatabase } from './database';

const TOPICS = [
  ['change the delivery address of my order', 'Open your order page and press Change address before it ships.'],
  ['reset my password, the link never arrives', 'Check your spam folder; the link is valid one hour.'],
  ['get a refund for a damaged parcel', 'Send us a photo of the parcel and we refund within 3 days.'],
  ['cancel my subscription before renewal', 'Settings → Billing → Cancel; you keep access until the period ends.'],
  ['invoice with my company VAT number', 'Add the VAT number under Billing details; new invoices carry it.'],
  ['do you ship to Canada and Mexico', 'We ship to both; it takes about 5 working days.'],
  ['two factor authentication lost phone', 'Use a backup code, or write to us from your account e-mail.'],
  ['upgrade plan for more operators', 'Pick the Pro plan under Billing; the price is prorated.'],
];
const OPENINGS = ['Hi, ', 'Hello! ', '', 'Quick question: ', 'Good morning, how do I ', 'Can you help me '];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function main(): Promise<void> {
  const db = await startDatabase('past-answers');
  const connection = await mongoose.createConnection(db.uri, { dbName: 'bench' }).asPromise();
  try {
    const models = createModels(connection);
    await Promise.all(Object.values(models).map((model) => model.init()));
    const accountId = new Types.ObjectId();
    const ceId = new Types.ObjectId();
    const conversations = [];
    const messages = [];
    for (let i = 0; i < PAST_CONVERSATIONS + 200; i++) {
      const [question, answer] = TOPICS[i % TOPICS.length] ?? ['', ''];
      const _id = new Types.ObjectId();
      const answered = i < PAST_CONVERSATIONS;
      conversations.push({
        _id,
        accountId,
        ceId,
        number: i + 1,
        visitorId: new Types.ObjectId(),
        firstResponseAt: answered ? new Date() : null,
      });
      messages.push({ conversationId: _id, seq: 1, from: 'visitor', text: `${OPENINGS[i % OPENINGS.length]}${question} (#${i})` });
      if (answered) messages.push({ conversationId: _id, seq: 2, from: 'operator', text: answer, slackUserId: 'U0ALICE001' });
    }
    await models.Conversation.insertMany(conversations);
    await models.Message.insertMany(messages);

    let reads = 0;
    const counted = (model: mongoose.Model<never>) => {
      for (const op of ['find', 'findOne'] as const) {
        const original = model[op].bind(model) as (...args: unknown[]) => unknown;
        (model as unknown as Record<string, unknown>)[op] = (...args: unknown[]) => {
          reads += 1;
          return original(...args);
        };
      }
    };
    counted(models.Conversation as unknown as mongoose.Model<never>);
    counted(models.Message as unknown as mongoose.Model<never>);

    const past = new PastAnswers({ models });
    let started = performance.now();
    const first = await past.suggest(ceId, 'how can I change the delivery address for my order?');
    const firstMs = performance.now() - started;
    const firstReads = reads;

    const questions = [
      'i need to change the delivery address on my order',
      'password reset link never arrives',
      'refund for a damaged parcel please',
      'do you sell printers',
      'hello is anyone there',
      'cancel subscription before it renews',
    ];
    const times: number[] = [];
    reads = 0;
    let suggested = 0;
    const rounds = 300;
    for (let i = 0; i < rounds; i++) {
      started = performance.now();
      const found = await past.suggest(ceId, questions[i % questions.length] ?? '');
      times.push(performance.now() - started);
      if (found.length > 0) suggested += 1;
    }
    times.sort((a, b) => a - b);
    console.log(`past answers of one widget: ${PAST_CONVERSATIONS} answered conversations (of ${conversations.length})`);
    console.log(
      `first suggestion (builds the index): ${firstMs.toFixed(1)} ms, of which the build ${past.stats.buildMs.toFixed(1)} ms; ` +
        `${firstReads} database reads, ${first.length} suggested`,
    );
    console.log(
      `next suggestions (index kept): p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, ` +
        `${(reads / rounds).toFixed(2)} database reads each, ${suggested} of ${rounds} with a suggestion`,
    );
  } finally {
    await connection.close();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
