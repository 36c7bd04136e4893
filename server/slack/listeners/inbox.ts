/**
 * The header's shared-inbox controls (Assign to me, the assignee picker, Unassign, Snooze) and the snooze modal.
 * Each is acknowledged first; a refusal reaches the person as an ephemeral explanation and nothing changes.
 */
import type { App, BlockAction, ButtonAction, StaticSelectAction, UsersSelectAction, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { checkUntil, dateUntil, presetUntil, SNOOZE_PRESETS, type SnoozePreset } from '../../conversations/snooze';
import { conversationOfBlock, INBOX_ACTIONS, SNOOZE_VIEW, snoozeModal } from '../blocks/inbox';
import type { SlackDeps } from '../deps';
import { assignFromSlack, operatorTimeZone, snoozeFromSlack, wakeFromSlack } from '../inboxActions';
import { conversationForMember } from './access';
import { refuse } from './actions';
import { failureText } from './failures';
import { tell } from './views';

type Respond = Parameters<typeof refuse>[2];

/** When a snooze choice ends, for this operator now; a problem to show when it cannot be. */
export async function snoozeChoiceUntil(
  client: WebClient,
  userId: string,
  choice: string,
  date: string,
): Promise<{ until: Date } | { problem: string }> {
  const now = new Date();
  const tz = await operatorTimeZone(client, userId);
  if ((SNOOZE_PRESETS as readonly string[]).includes(choice)) return checkUntil(presetUntil(choice as SnoozePreset, now, tz), now);
  if (choice !== 'date') return { problem: 'Choose how long to snooze.' };
  const until = date ? dateUntil(date, tz) : null;
  return until ? checkUntil(until, now) : { problem: 'Pick the date the conversation comes back.' };
}

export function registerInboxListeners(app: App, deps: SlackDeps): void {
  /** One header control: finds the conversation for a member of its channel, runs, tells a refusal. */
  const control = <A extends ButtonAction | UsersSelectAction | StaticSelectAction>(
    actionId: string,
    conversationId: (action: A) => string,
    run: (
      args: { action: A; body: BlockAction<A>; client: WebClient; respond: Respond },
      found: Awaited<ReturnType<typeof conversationForMember>>,
    ) => Promise<string | null>,
  ) => {
    app.action<BlockAction<A>>(actionId, async ({ ack, body, action, client, respond, logger }) => {
      await ack();
      const who = { teamId: body.team?.id ?? '', userId: body.user.id };
      try {
        const found = await conversationForMember(deps.models, client, who, conversationId(action));
        const text = await run({ action, body, client, respond }, found);
        deps.homeTabs.teamChanged(who.teamId);
        if (text && body.response_url) await respond({ text, response_type: 'ephemeral', replace_original: false });
      } catch (error) {
        await refuse(client, body, respond, failureText(error, logger, `inbox control ${actionId}`), logger);
      }
    });
  };
  const idAndShown = (value: string | undefined) => {
    const [id = '', shown = ''] = (value ?? '').split(':');
    return { id, shown };
  };

  control<ButtonAction>(
    INBOX_ACTIONS.assignMe,
    (a) => idAndShown(a.value).id,
    ({ action, body, client }, { c }) => assignFromSlack(deps.relay, client, c, body.user.id, body.user.id, idAndShown(action.value).shown),
  );
  control<ButtonAction>(
    INBOX_ACTIONS.unassign,
    (a) => idAndShown(a.value).id,
    ({ action, body, client }, { c }) => assignFromSlack(deps.relay, client, c, '', body.user.id, idAndShown(action.value).shown),
  );
  control<UsersSelectAction>(
    INBOX_ACTIONS.assignPick,
    (a) => conversationOfBlock(a.block_id),
    ({ action, body, client }, { c }) => assignFromSlack(deps.relay, client, c, action.selected_user ?? '', body.user.id),
  );
  control<StaticSelectAction>(
    INBOX_ACTIONS.snooze,
    (a) => conversationOfBlock(a.block_id),
    async ({ action, body, client }, { c }) => {
      const choice = action.selected_option?.value ?? '';
      if (choice === 'wake') return wakeFromSlack(deps.relay, c, body.user.id);
      if (choice === 'date') {
        await client.views.open({ trigger_id: body.trigger_id, view: snoozeModal(c, 'date') });
        return null;
      }
      const reading = await snoozeChoiceUntil(client, body.user.id, choice, '');
      if ('problem' in reading) return reading.problem;
      return snoozeFromSlack(deps.relay, c, reading.until, body.user.id);
    },
  );

  app.view<ViewSubmitAction>(SNOOZE_VIEW.callbackId, async ({ ack, body, view, client, logger }) => {
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    const values = view.state.values;
    const choice = values[SNOOZE_VIEW.when]?.[SNOOZE_VIEW.when]?.selected_option?.value ?? '';
    const date = values[SNOOZE_VIEW.date]?.[SNOOZE_VIEW.date]?.selected_date ?? '';
    let found: Awaited<ReturnType<typeof conversationForMember>>;
    let until: Date;
    try {
      found = await conversationForMember(deps.models, client, who, view.private_metadata);
      if (found.c.status !== 'open') throw new Error(`Conversation #${found.c.number} has already ended.`);
      const reading = await snoozeChoiceUntil(client, who.userId, choice, date);
      if ('problem' in reading) {
        await ack({ response_action: 'errors', errors: { [choice === 'date' ? SNOOZE_VIEW.date : SNOOZE_VIEW.when]: reading.problem } });
        return;
      }
      until = reading.until;
    } catch (error) {
      const text =
        error instanceof Error && /has already ended/.test(error.message) ? error.message : failureText(error, logger, 'snooze modal');
      await ack({ response_action: 'errors', errors: { [SNOOZE_VIEW.when]: text } });
      return;
    }
    await ack();
    let text: string;
    try {
      text = await snoozeFromSlack(deps.relay, found.c, until, who.userId);
      deps.homeTabs.teamChanged(who.teamId);
    } catch (error) {
      text = failureText(error, logger, 'snooze modal');
    }
    await tell(client, logger, { channel: found.c.slackChannel, user: who.userId, threadTs: found.c.threadTs || undefined }, text);
  });
}
