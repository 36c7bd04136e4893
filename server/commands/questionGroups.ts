/**
 * Question groups of an account: saved with the tree normalised and validated (server/shared/questionGroups.ts),
 * prompts and custom responses sanitised to a, strong, b and br, and at most one automatic group.
 */
import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import sanitizeHtml from 'sanitize-html';
import { NotFoundError, ValidationError } from '../errors';
import type { Models } from '../models';
import type { QuestionGroupDocument } from '../models/QuestionGroup';
import {
  normaliseTree,
  parseTree,
  QUESTION_GROUP_ALLOWED_TAGS,
  QUESTION_GROUP_LIMITS,
  type QuestionGroupInput,
  type QuestionGroupView,
  questionGroupErrors,
  type TreeNode,
} from '../shared/questionGroups';
import { shortReads } from '../shortReads';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random identifier of letters and digits (10 characters for groups, 13 for tree nodes). */
export function randomId(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // 62 letters: bytes above 247 would favour the first symbols, so they are skipped.
  for (const b of bytes) {
    if (b >= 248) continue;
    out += ALPHABET[b % 62];
    if (out.length === length) break;
  }
  return out.length === length ? out : randomId(length);
}

/** Only a (http, https, mailto links), strong, b and br survive. */
export function sanitiseQuestionHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...QUESTION_GROUP_ALLOWED_TAGS],
    allowedAttributes: { a: ['href'] },
    allowedSchemes: ['http', 'https', 'mailto'],
  });
}

export type { QuestionGroupView } from '../shared/questionGroups';

export function presentQuestionGroup(g: QuestionGroupDocument): QuestionGroupView {
  return {
    uid: g.uid,
    accountId: String(g.accountId),
    label: g.label,
    shortcut: g.shortcut,
    auto: g.auto,
    prompt: g.prompt,
    treeJson: g.treeJson,
    tag: g.tag ?? '',
  };
}

export function treeOf(group: Pick<QuestionGroupDocument, 'treeJson'>): TreeNode[] {
  try {
    return JSON.parse(group.treeJson) as TreeNode[];
  } catch {
    return [];
  }
}

export async function listQuestionGroups(models: Models, accountId: Types.ObjectId): Promise<QuestionGroupView[]> {
  const groups = await models.QuestionGroup.find({ accountId }).sort({ _id: 1 });
  return groups.map(presentQuestionGroup);
}

function sanitiseTree(nodes: TreeNode[]): void {
  for (const n of nodes) {
    if (n.customResponseText !== undefined) n.customResponseText = sanitiseQuestionHtml(n.customResponseText);
    sanitiseTree(n.children);
  }
}

function fail(path: string, message: string): never {
  throw new ValidationError(`${path}: ${message}`);
}

export async function saveQuestionGroup(
  models: Models,
  accountId: Types.ObjectId,
  input: QuestionGroupInput,
): Promise<QuestionGroupDocument> {
  const parsed = parseTree(input.treeJson);
  if ('error' in parsed) fail(parsed.error.path, parsed.error.message);
  const tree = normaliseTree(parsed.nodes, () => randomId(QUESTION_GROUP_LIMITS.nodeIdChars));
  const first = questionGroupErrors({ label: input.label, prompt: input.prompt, tree })[0];
  if (first) fail(first.path, first.message);
  sanitiseTree(tree);
  if (input.tag && !(await accountTags(models, accountId)).has(input.tag)) {
    fail('tag', `“${input.tag}” is not a tag of any of your widgets: add it in Settings → Behavior → Tags first.`);
  }
  const fields = {
    label: input.label.trim(),
    shortcut: input.shortcut,
    auto: input.auto,
    prompt: sanitiseQuestionHtml(input.prompt),
    treeJson: JSON.stringify(tree),
    tag: input.tag,
  };
  if (input.shortcut) {
    const taken = await models.QuestionGroup.findOne({ accountId, shortcut: input.shortcut });
    if (taken && taken.uid !== input.uid) fail('shortcut', 'Another question group already uses that shortcut.');
  }
  let group: QuestionGroupDocument | null = null;
  try {
    if (input.uid) {
      const existing = await models.QuestionGroup.findOne({ uid: input.uid });
      // Another account's uid answers like a missing group, and cannot be taken over.
      if (existing && String(existing.accountId) !== String(accountId)) throw new NotFoundError('Question group not found');
      if (existing) {
        existing.set(fields);
        group = await existing.save();
      }
    }
    group ??= await models.QuestionGroup.create({ ...fields, accountId, uid: input.uid ?? randomId(QUESTION_GROUP_LIMITS.groupUidChars) });
  } catch (error) {
    if ((error as { code?: unknown }).code === 11000) fail('shortcut', 'Another question group already uses that shortcut.');
    throw error;
  }
  if (group.auto) await models.QuestionGroup.updateMany({ accountId, auto: true, _id: { $ne: group._id } }, { $set: { auto: false } });
  autoGroups.drop(models, String(accountId));
  return group;
}

/** Every tag of the account's widgets' lists: the tags a question group (shared by the widgets) may name. */
export async function accountTags(models: Models, accountId: Types.ObjectId): Promise<Set<string>> {
  const widgets = await models.ChatEndpoint.find({ accountId }, { tags: 1 }).lean();
  return new Set(widgets.flatMap((w) => w.tags ?? []));
}

/**
 * A tag dropped from a widget's list leaves the settings that named it: the widget's articles lose it, and so do the
 * account's question groups once no widget of the account lists it (a group's tag only ever applies where the
 * conversation's widget lists it). Answers how many articles and groups were changed.
 */
export async function dropUnlistedTags(
  models: Models,
  ce: { _id: Types.ObjectId; accountId: Types.ObjectId; tags: readonly string[] },
): Promise<{ articles: number; questionGroups: number }> {
  const articles = await models.Article.updateMany({ ceId: ce._id, tag: { $nin: ['', ...ce.tags] } }, { $set: { tag: '' } });
  const listed = [...(await accountTags(models, ce.accountId))];
  const groups = await models.QuestionGroup.updateMany({ accountId: ce.accountId, tag: { $nin: ['', ...listed] } }, { $set: { tag: '' } });
  if (groups.modifiedCount > 0) autoGroups.drop(models, String(ce.accountId));
  return { articles: articles.modifiedCount, questionGroups: groups.modifiedCount };
}

export async function deleteQuestionGroup(models: Models, accountId: Types.ObjectId, uid: string): Promise<void> {
  const found = await models.QuestionGroup.findOneAndDelete({ accountId, uid });
  autoGroups.drop(models, String(accountId));
  if (!found) throw new NotFoundError('Question group not found');
}

/**
 * The account's automatic question group (started by every new conversation), kept for a second as the widget's
 * settings are (relay/widgets.ts), so a new conversation costs no read for it: a save or deletion through this process
 * drops the account's entry at once; another process's is seen within a second (server/shortReads.ts). Held per
 * database (the models), so tests' servers in one process never share entries.
 */
const autoGroups = shortReads<Models, QuestionGroupDocument | null>(1000);

export function automaticQuestionGroup(models: Models, accountId: Types.ObjectId): Promise<QuestionGroupDocument | null> {
  return autoGroups.get(models, String(accountId), () => models.QuestionGroup.findOne({ accountId, auto: true }).exec());
}
