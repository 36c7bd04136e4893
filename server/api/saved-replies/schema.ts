import type { z } from 'zod';
import { SavedReplyInputSchema } from '../../shared/savedReplies';

/** POST /chat_endpoints/{id}/saved_replies: create, or update when `id` (or `Id`) is given. */
export const SaveSavedReplySchema = SavedReplyInputSchema;
export type SaveSavedReply = z.infer<typeof SaveSavedReplySchema>;
