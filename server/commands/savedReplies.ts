/**
 * Saved replies of a widget: stored with the response HTML-entity encoded, presented decoded, and rendered
 * for the widget (text and a small sanitised HTML) and for Slack.
 */
import he from 'he';
import { isValidObjectId } from 'mongoose';
import sanitizeHtml from 'sanitize-html';
import { NotFoundError, ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { SavedReplyDocument } from '../models/SavedReply';
import { escapeMrkdwn } from '../shared/mrkdwn';
import type { SavedReplyInput, SavedReplyView } from '../shared/savedReplies';
import type { SavedRepliesWritten } from './autoSendReplies';

export type { SavedReplyView } from '../shared/savedReplies';

export function encodeResponse(text: string): string {
  return he.encode(text, { useNamedReferences: false });
}

/** Numeric and named entities back to characters. */
export function decodeResponse(stored: string): string {
  return he.decode(stored);
}

export function presentSavedReply(r: SavedReplyDocument): SavedReplyView {
  return {
    id: r.id as string,
    Id: r.id as string,
    label: r.label,
    triggerPhrases: r.triggerPhrases,
    response: decodeResponse(r.response),
    shortcut: r.shortcut,
    autoSend: r.autoSend,
    chatEndpointId: String(r.ceId),
  };
}

export async function listSavedReplies(models: Models, ce: ChatEndpointDocument): Promise<SavedReplyView[]> {
  const replies = await models.SavedReply.find({ ceId: ce._id }).sort({ _id: 1 });
  return replies.map(presentSavedReply);
}

const SHORTCUT_TAKEN = 'shortcut: Another saved reply of this widget already uses that shortcut.';

/** What a write of saved replies needs: the database, and the widgets' automatic replies to tell. */
export type SavedReplyDeps = { models: Models; autoReplies: SavedRepliesWritten };

/** Creates or (with `id`) updates a reply; the very next visitor message sees the change. */
export async function saveSavedReply(deps: SavedReplyDeps, ce: ChatEndpointDocument, input: SavedReplyInput): Promise<SavedReplyDocument> {
  const { models } = deps;
  const id = input.id ?? input.Id;
  const fields = {
    label: input.label,
    triggerPhrases: input.triggerPhrases,
    response: encodeResponse(input.response),
    shortcut: input.shortcut,
    autoSend: input.autoSend,
  };
  if (input.shortcut) {
    const taken = await models.SavedReply.findOne({ ceId: ce._id, shortcut: input.shortcut });
    if (taken && taken.id !== id) throw new ValidationError(SHORTCUT_TAKEN);
  }
  try {
    if (id) {
      const existing =
        isValidObjectId(id) && /^[0-9a-f]{24}$/i.test(id) ? await models.SavedReply.findOne({ _id: id, ceId: ce._id }) : null;
      if (!existing) throw new NotFoundError('Saved reply not found');
      existing.set(fields);
      return await existing.save();
    }
    return await models.SavedReply.create({ ...fields, accountId: ce.accountId, ceId: ce._id });
  } catch (error) {
    // Two saves racing for one shortcut: the unique index decides.
    if ((error as { code?: unknown }).code === 11000) throw new ValidationError(SHORTCUT_TAKEN);
    throw error;
  } finally {
    // Also after a failure: a write may have landed before it.
    deps.autoReplies.changed(ce._id);
  }
}

export async function deleteSavedReply(deps: SavedReplyDeps, ce: ChatEndpointDocument, replyId: string): Promise<void> {
  const found = /^[0-9a-f]{24}$/i.test(replyId) ? await deps.models.SavedReply.findOneAndDelete({ _id: replyId, ceId: ce._id }) : null;
  if (!found) throw new NotFoundError('Saved reply not found');
  deps.autoReplies.changed(ce._id);
}

/** A decoded response as the widget shows it: plain text, and HTML keeping links, bold and line breaks. */
export function renderForWidget(decoded: string): { text: string; html: string } {
  const withBreaks = decoded.replace(/\r?\n/g, '<br>');
  const html = sanitizeHtml(withBreaks, {
    allowedTags: ['a', 'strong', 'b', 'em', 'i', 'br'],
    allowedAttributes: { a: ['href', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  });
  const text = he.decode(sanitizeHtml(decoded.replace(/<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} }));
  return { text, html };
}

/** The same response as Slack mrkdwn: links as <url|label>, bold as *…*, everything else escaped. */
export function renderForSlack(decoded: string): string {
  const parts: string[] = [];
  const tag = /<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>|<(strong|b)>([\s\S]*?)<\/\3>|<br\s*\/?>/gi;
  let at = 0;
  for (const m of decoded.matchAll(tag)) {
    parts.push(escapeMrkdwn(he.decode(sanitizeHtml(decoded.slice(at, m.index), { allowedTags: [], allowedAttributes: {} }))));
    if (m[1] !== undefined)
      parts.push(/^(https?:|mailto:)/i.test(m[1]) ? `<${m[1]}|${escapeMrkdwn(m[2] ?? '')}>` : escapeMrkdwn(m[2] ?? ''));
    else if (m[3] !== undefined) parts.push(`*${escapeMrkdwn(m[4] ?? '')}*`);
    else parts.push('\n');
    at = (m.index ?? 0) + m[0].length;
  }
  parts.push(escapeMrkdwn(he.decode(sanitizeHtml(decoded.slice(at), { allowedTags: [], allowedAttributes: {} }))));
  return parts.join('');
}
