/**
 * Bots and users added to new conversations (settings-and-reports.md sections 3 and 7), shared by the API and
 * the console: the shapes of the calls under /v1/chat_endpoints/{id}/users, bot_users and bot.
 */
import { z } from 'zod';

const slackId = (what: string) => z.string({ error: `${what}: Required.` }).regex(/^[UWB][A-Z0-9]{2,30}$/, `${what}: Not a Slack id.`);

/** POST /chat_endpoints/{id}/bot */
export const AddBotSchema = z.object({
  userID: slackId('userID'),
  name: z.string().max(200).default(''),
  botID: z.union([z.literal(''), slackId('botID')]).default(''),
});
export type AddBotPayload = z.infer<typeof AddBotSchema>;

/** DELETE /chat_endpoints/{id}/bot */
export const RemoveBotSchema = z.object({
  ID: z.string({ error: 'ID: Required.' }).regex(/^[0-9a-f]{24}$/i, 'ID: Not a bot user of this widget.'),
  name: z.string().max(200).optional(),
});
export type RemoveBotPayload = z.infer<typeof RemoveBotSchema>;

/** One entry of GET /chat_endpoints/{id}/bot_users: added to every new conversation. botID is empty for people. */
export type BotUserView = { ID: string; userID: string; name: string; botID: string };

/** One entry of GET /chat_endpoints/{id}/users: a member of the widget's Slack workspace. */
export type SlackUserView = {
  id: string;
  name: string;
  real_name: string;
  is_bot: boolean;
  profile: { bot_id?: string; image_48?: string };
};

/** The integrations row, in words: '1 bot joins each new conversation', '2 bots and 1 teammate join …'. */
export function botsStatusText(list: readonly Pick<BotUserView, 'botID'>[]): string {
  const bots = list.filter((b) => b.botID !== '').length;
  const people = list.length - bots;
  const parts = [
    bots > 0 ? `${bots} ${bots === 1 ? 'bot' : 'bots'}` : '',
    people > 0 ? `${people} ${people === 1 ? 'teammate' : 'teammates'}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'Nobody is added to new conversations';
  return `${parts.join(' and ')} ${list.length === 1 ? 'joins' : 'join'} each new conversation`;
}
