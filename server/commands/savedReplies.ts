/**
 * Saved replies of a widget: stored with the response HTML-entity encoded, presented decoded, and rendered
 * (Markdown or the few allowed tags, server/ownerText.ts) for the widget (text and a small sanitised HTML) and for Slack.
 */
import he from 'he';
import { isValidObjectId } from 'mongoose';
import { NotFoundError, ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { SavedReplyDocument } from '../models/SavedReply';
import { renderOwnerText } from '../ownerText';
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

/** A decoded response as the widget shows it: plain text, and HTML with its bold, italics, links and line breaks. */
export function renderForWidget(decoded: string): { text: string; html: string } {
  const { text, html } = renderOwnerText(decoded);
  return { text, html };
}

/** The same response as Slack mrkdwn: links as <url|label>, bold as *…*, italics as _…_, every text piece escaped. */
export function renderForSlack(decoded: string): string {
  return renderOwnerText(decoded).mrkdwn;
}
