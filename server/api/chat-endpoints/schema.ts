import { z } from 'zod';
import { INSTALL_BOT_SCOPES, INSTALL_USER_SCOPES } from '../../shared/slack-scopes';

// Ids in paths are not parsed here: the access check answers 404 for malformed, unknown and foreign ids alike.

/** Slack's channel name rules: lowercase letters, digits, - and _, 1 to 80 characters. */
export const SLACK_CHANNEL_NAME = /^[a-z0-9_-]{1,80}$/;
export const CHANNEL_NAME_HINT = 'Slack requires lowercase letters, no spaces or punctuation (only - and _), at most 80 characters.';

const channelName = z
  .string(CHANNEL_NAME_HINT)
  .trim()
  .transform((s) => s.toLowerCase())
  .pipe(z.string().regex(SLACK_CHANNEL_NAME, CHANNEL_NAME_HINT));

/** POST /chat_endpoints/{id}/channels */
export const CreateChannelSchema = z.strictObject({ channelName });
export type CreateChannelPayload = z.infer<typeof CreateChannelSchema>;

/** PUT /chat_endpoints/{id}/rename-channel */
export const RenameChannelSchema = z.strictObject({ roomName: channelName });
export type RenameChannelPayload = z.infer<typeof RenameChannelSchema>;

/**
 * PUT /chat_endpoints/{id}/connect_ce: the console sends the whole widget; only the channel is read
 * (its name is taken from Slack), every other field is ignored.
 */
export const ConnectChannelSchema = z.looseObject({
  RoomId: z.string('Pick a Slack channel').regex(/^[CG][A-Z0-9]{2,30}$/, 'Pick a Slack channel'),
  RoomName: z.string().max(200).optional(),
});
export type ConnectChannelPayload = z.infer<typeof ConnectChannelSchema>;

const scopeList = (allowed: readonly string[]) =>
  z
    .string()
    .max(1000)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(allowed as [string, ...string[]], `Unknown scope; expected some of: ${allowed.join(', ')}`)))
    .optional();

/** GET /chat_endpoints/{id}/slack_authorize?purpose=…[&bot=…&user=…] */
export const SlackAuthorizeQuerySchema = z.strictObject({
  purpose: z.enum(['install', 'swap_user', 'upgrade'], 'purpose must be install, swap_user or upgrade'),
  bot: scopeList(INSTALL_BOT_SCOPES),
  user: scopeList([...INSTALL_USER_SCOPES, 'chat:write']),
});
export type SlackAuthorizeQuery = z.infer<typeof SlackAuthorizeQuerySchema>;

/** PUT /chat_endpoints/{id}/toggle/{on|off} */
export const ToggleParamsSchema = z.strictObject({ id: z.string(), state: z.enum(['on', 'off'], 'Say on or off') });
export type ToggleParams = z.infer<typeof ToggleParamsSchema>;
