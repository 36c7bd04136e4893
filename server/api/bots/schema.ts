import type { z } from 'zod';
import { AddBotSchema, RemoveBotSchema } from '../../shared/bots';

/** POST /chat_endpoints/{id}/bot: add a Slack bot or person to the widget's new conversations. */
export const AddBotBodySchema = AddBotSchema;
export type AddBotBody = z.infer<typeof AddBotBodySchema>;

/** DELETE /chat_endpoints/{id}/bot: stop adding one. */
export const RemoveBotBodySchema = RemoveBotSchema;
export type RemoveBotBody = z.infer<typeof RemoveBotBodySchema>;
