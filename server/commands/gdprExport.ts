/**
 * The GDPR export of an account: everything Parley holds for it (account, users without password hashes,
 * widgets and their settings, conversations, messages, visitors, uploaded files' metadata, offline messages,
 * saved replies, question groups, REST hooks without secrets, erasure records) as JSON lines, one file per
 * kind, in one zip archive. Built in the background from database cursors straight into the archive file, so
 * an account of any size is never held in memory; progress is stored as it goes. When it is done the account's
 * GDPRExportSignedURL is a signed link valid for 24 hours and the admin who asked gets a mail.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import type { mongo, Types } from 'mongoose';
import { ValidationError } from '../errors';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import { gdprExportReadyMail } from '../mail/templates';
import type { Models } from '../models';
import type { GdprExportDocument } from '../models/GdprExport';
import type { UserDocument } from '../models/User';
import { ERROR_CODES } from '../shared/constants';
import { GDPR_EXPORT_TTL_HOURS, type GdprExportView, TEAM_MESSAGES } from '../shared/team';

export type GdprExportDeps = {
  models: Models;
  mailer: Mailer;
  publicUrl: string;
  /** Signs the download links. */
  secret: string;
  /** Archives are written under dataDir/exports. */
  dataDir: string;
  logger: Pick<Logger, 'error'>;
};

const HOUR_MS = 60 * 60 * 1000;
/** A running export not heard of for this long died with its process: another may start. */
const STALE_MS = 5 * 60 * 1000;
const PROGRESS_EVERY_MS = 500;
const MESSAGE_BATCH = 100;
/** Documents fetched per round trip: small, so a batch is read and let go before the next one arrives. */
const CURSOR_BATCH = 100;
/**
 * Lines are handed to the archive in chunks of about this many characters: one buffer per chunk instead of one
 * small pooled buffer per document, which under load survive long enough to be promoted and pin their pool slabs.
 */
const CHUNK_CHARS = 16 * 1024;
/** JSON lines compress well even at the fastest level; a higher one costs time and buys little. */
const ZLIB_LEVEL = 1;

export const exportFile = (dataDir: string, id: Types.ObjectId | string) => path.join(dataDir, 'exports', `${String(id)}.zip`);

const sign = (secret: string, id: string, expires: number) =>
  createHmac('sha256', secret).update(`gdpr-export:${id}:${expires}`).digest('hex');

export function signedExportUrl(deps: Pick<GdprExportDeps, 'publicUrl' | 'secret'>, id: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${deps.publicUrl}/v1/p/gdpr-exports/${id}?expires=${expires}&signature=${sign(deps.secret, id, expires)}`;
}

/** True when the link's signature is right and it has not expired. */
export function verifyExportLink(secret: string, id: string, expires: string, signature: string, now = Date.now()): boolean {
  if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Number(expires) * 1000 <= now) return false;
  return timingSafeEqual(Buffer.from(sign(secret, id, Number(expires)), 'hex'), Buffer.from(signature, 'hex'));
}

export function presentExport(
  deps: Pick<GdprExportDeps, 'publicUrl' | 'secret'>,
  job: GdprExportDocument,
  now = Date.now(),
): GdprExportView {
  const live = job.status === 'ready' && job.expiresAt !== null && job.expiresAt.getTime() > now;
  return {
    Id: job.id as string,
    status: job.status,
    done: job.done,
    total: job.total,
    size: job.size,
    createdAt: job.createdAt.toISOString(),
    url: live && job.expiresAt ? signedExportUrl(deps, job.id as string, job.expiresAt) : '',
    expiresAt: job.expiresAt ? job.expiresAt.toISOString() : null,
  };
}

/** Deletes archives whose links have expired, and marks exports whose process died as failed. */
export async function sweepExports(deps: Pick<GdprExportDeps, 'models' | 'dataDir'>, now = new Date()): Promise<void> {
  const expired = await deps.models.GdprExport.find({ status: 'ready', expiresAt: { $lte: now } });
  for (const job of expired) {
    await rm(exportFile(deps.dataDir, job._id), { force: true });
    job.status = 'failed';
    await job.save();
  }
  await deps.models.GdprExport.updateMany(
    { status: 'running', updatedAt: { $lt: new Date(now.getTime() - STALE_MS) } },
    { $set: { status: 'failed' } },
  );
}

/**
 * Starts an export of the admin's account and answers at once; the archive is built in the background.
 * `built` resolves when the archive is done (tests and the benchmark wait on it).
 */
export async function startGdprExport(
  deps: GdprExportDeps,
  admin: UserDocument,
): Promise<{ job: GdprExportDocument; built: Promise<void> }> {
  const { models } = deps;
  await sweepExports(deps);
  if (await models.GdprExport.exists({ accountId: admin.accountId, status: 'running' })) {
    throw new ValidationError(TEAM_MESSAGES.exportRunning, ERROR_CODES.conflict);
  }
  const job = await models.GdprExport.create({ accountId: admin.accountId, requestedBy: admin._id, status: 'running' });
  const built = buildArchive(deps, job, admin).catch(async (error: unknown) => {
    deps.logger.error({ exportId: job.id as string, err: error }, 'GDPR export failed');
    await models.GdprExport.updateOne({ _id: job._id }, { $set: { status: 'failed' } }).catch(() => undefined);
    await rm(exportFile(deps.dataDir, job._id), { force: true });
  });
  return { job, built };
}

/** One kind of record: a collection, which of its documents, what to leave out, in what order. */
type Source = { collection: mongo.Collection; filter: mongo.Filter<mongo.Document>; projection?: mongo.Document; sort?: mongo.Sort };

async function buildArchive(deps: GdprExportDeps, job: GdprExportDocument, admin: UserDocument): Promise<void> {
  const { models } = deps;
  const accountId = admin.accountId;
  const widgets = await models.ChatEndpoint.find({ accountId }, { _id: 1 }).lean();
  const ceIds = widgets.map((w) => w._id);
  const ofAccount = { accountId };
  const entries: [string, Source][] = [
    ['account.jsonl', { collection: models.Account.collection, filter: { _id: accountId } }],
    ['users.jsonl', { collection: models.User.collection, filter: ofAccount, projection: { passwordHash: 0 } }],
    ['widgets.jsonl', { collection: models.ChatEndpoint.collection, filter: ofAccount, projection: { identitySecret: 0 } }],
    // searchTerms is the history search's index, derived from the messages and visitors exported beside it.
    [
      'conversations.jsonl',
      { collection: models.Conversation.collection, filter: ofAccount, projection: { searchTerms: 0 }, sort: { _id: 1 } },
    ],
    ['visitors.jsonl', { collection: models.Visitor.collection, filter: ofAccount, projection: { tokenHash: 0, deviceTokenHashes: 0 } }],
    ['files.jsonl', { collection: models.WidgetFile.collection, filter: { ceId: { $in: ceIds } }, projection: { data: 0 } }],
    ['offline-messages.jsonl', { collection: models.OfflineMessage.collection, filter: ofAccount }],
    ['saved-replies.jsonl', { collection: models.SavedReply.collection, filter: ofAccount }],
    ['question-groups.jsonl', { collection: models.QuestionGroup.collection, filter: ofAccount }],
    ['rest-hooks.jsonl', { collection: models.RestHook.collection, filter: ofAccount, projection: { secret: 0 } }],
    ['erasures.jsonl', { collection: models.GdprErasure.collection, filter: ofAccount }],
  ];
  let total = await countMessages(models, accountId);
  for (const [, source] of entries) total += await source.collection.countDocuments(source.filter);
  await models.GdprExport.updateOne({ _id: job._id }, { $set: { total } });

  let done = 0;
  let reported = Date.now();
  const file = exportFile(deps.dataDir, job._id);
  await mkdir(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  const archive = new ZipArchive({ zlib: { level: ZLIB_LEVEL } });
  let lines: PassThrough | null = null;
  const failed = new Promise<never>((_resolve, reject) =>
    archive.on('error', (error: unknown) => {
      lines?.destroy(error instanceof Error ? error : new Error(String(error)));
      reject(error);
    }),
  );
  failed.catch(() => undefined);
  archive.pipe(out);
  archive.append(README, { name: 'README.txt' });

  /**
   * Writes one archive entry: each document is serialised once into the entry's stream, a chunk at a time,
   * waiting whenever the archive is behind, so at most a cursor batch and a stream buffer are in memory.
   */
  async function entry(name: string, documents: AsyncIterable<mongo.Document>): Promise<void> {
    const stream = new PassThrough();
    lines = stream;
    archive.append(stream, { name });
    let pending = '';
    for await (const doc of documents) {
      pending += `${JSON.stringify(doc)}\n`;
      if (pending.length >= CHUNK_CHARS) {
        const drained = stream.write(pending);
        pending = '';
        if (!drained) await once(stream, 'drain');
      }
      done += 1;
      if (Date.now() - reported >= PROGRESS_EVERY_MS) {
        reported = Date.now();
        await models.GdprExport.updateOne({ _id: job._id }, { $set: { done } });
      }
    }
    stream.end(pending);
  }
  const find = ({ collection, filter, projection, sort }: Source) => collection.find(filter, { projection, sort, batchSize: CURSOR_BATCH });

  for (const [name, source] of entries) {
    await entry(name, find(source));
    if (name === 'conversations.jsonl') await entry('messages.jsonl', messagesOf(models, accountId));
  }
  await Promise.race([archive.finalize(), failed]);
  await finished(out);

  const expiresAt = new Date(Date.now() + GDPR_EXPORT_TTL_HOURS * HOUR_MS);
  const { size } = await stat(file);
  const url = signedExportUrl(deps, job.id as string, expiresAt);
  await models.Account.updateOne({ _id: accountId }, { $set: { GDPRExportSignedURL: url } });
  // The mail goes before the export shows as ready, so whoever sees the link can find the mail too; a mail that
  // cannot be sent does not throw away a good archive.
  await gdprExportReadyMail(admin.email, url, GDPR_EXPORT_TTL_HOURS)
    .then((mail) => deps.mailer.send(mail))
    .catch((error: unknown) => {
      deps.logger.error({ exportId: job.id as string, err: error }, 'GDPR export: the ready mail could not be sent');
    });
  await models.GdprExport.updateOne({ _id: job._id }, { $set: { status: 'ready', done: total, size, expiresAt, finishedAt: new Date() } });
}

/** Conversation ids of the account, a batch at a time, in creation order. */
async function* conversationBatches(models: Models, accountId: Types.ObjectId): AsyncGenerator<Types.ObjectId[]> {
  let batch: Types.ObjectId[] = [];
  const ids = models.Conversation.collection.find<{ _id: Types.ObjectId }>(
    { accountId },
    { projection: { _id: 1 }, sort: { _id: 1 }, batchSize: CURSOR_BATCH },
  );
  for await (const c of ids) {
    batch.push(c._id);
    if (batch.length >= MESSAGE_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Messages have no account id: they are read conversation batch by conversation batch. */
async function* messagesOf(models: Models, accountId: Types.ObjectId): AsyncGenerator<mongo.Document> {
  for await (const ids of conversationBatches(models, accountId)) {
    yield* models.Message.collection.find(
      { conversationId: { $in: ids } },
      { sort: { conversationId: 1, seq: 1 }, batchSize: CURSOR_BATCH },
    );
  }
}

async function countMessages(models: Models, accountId: Types.ObjectId): Promise<number> {
  let count = 0;
  for await (const ids of conversationBatches(models, accountId))
    count += await models.Message.collection.countDocuments({ conversationId: { $in: ids } });
  return count;
}

const README = `Parley data export

One file per kind of record, one JSON object per line (JSON Lines):
  account.jsonl           the account (plan, billing details)
  users.jsonl             the account's users (without password hashes)
  widgets.jsonl           the widgets and all their settings
  conversations.jsonl     every conversation
  messages.jsonl          every message of those conversations
  visitors.jsonl          the visitors (without their session token hashes)
  files.jsonl             metadata of uploaded files (name, size, type)
  offline-messages.jsonl  messages left through the offline form
  saved-replies.jsonl, question-groups.jsonl
  rest-hooks.jsonl        REST hook subscriptions (without their secrets)
  erasures.jsonl          records of visitors erased on request

Slack threads are held by Slack; export them from your Slack workspace.
`;
