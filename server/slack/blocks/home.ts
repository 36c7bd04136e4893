/**
 * The App Home tab: for each widget whose channel the person is in, whether it is online and why, its
 * conversation counts, the conversations waiting for an answer (links to their threads), and buttons to go
 * online, offline or into manual mode, edit the operating hours, and open the settings in the console.
 */
import type { types } from '@slack/bolt';
import type { IdentityProof } from '../../conversations/identity';
import type { InboxState } from '../../models/Conversation';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { UNVERIFIED_MARK, VERIFIED_MARK } from './thread';

type KnownBlock = types.KnownBlock;

export const HOME_ACTIONS = {
  goOnline: 'home_go_online',
  goOffline: 'home_go_offline',
  manualMode: 'home_manual_mode',
  operatingHours: 'home_operating_hours',
  openSettings: 'home_open_settings',
} as const;

export type HomeWidget = {
  id: string;
  channelId: string;
  channelName: string;
  off: boolean;
  manualMode: boolean;
  online: boolean;
  why: string;
  today: number;
  last30Days: number;
  /** `proof`: what the site proved of the visitor's identity (conversations/identity.ts identityProof). */
  waiting: { number: number; name: string; proof: IdentityProof; since: Date; link: string }[];
  /** Open conversations assigned to the viewer, and those nobody has: the first few, oldest waiting first. */
  mine: InboxList;
  unassigned: InboxList;
};

/** A shared-inbox list of App Home: its first lines and how many it has in all. */
export type InboxList = { rows: InboxRow[]; total: number };
export type InboxRow = {
  number: number;
  name: string;
  link: string;
  state: InboxState;
  /** Since when the visitor waits for the team (null: nobody waits); the snooze's end while snoozed. */
  waitingSince: Date | null;
  snoozedUntil: Date | null;
  /** Past its response target (due, or reminded). */
  missed: boolean;
};

/** "14:02" in the reader's time zone (Slack's date formatting); the same text every time, so an unchanged home is not republished. */
const clock = (at: Date, format = '{time}') =>
  `<!date^${Math.floor(at.getTime() / 1000)}^${format}|${at.toISOString().slice(0, 16).replace('T', ' ')} UTC>`;

function stateText(r: InboxRow): string {
  if (r.state === 'snoozed') return `:zzz: snoozed${r.snoozedUntil ? ` until ${clock(r.snoozedUntil, '{date_short_pretty} {time}')}` : ''}`;
  if (r.state === 'waiting') return ':speech_balloon: waiting for the visitor';
  return r.waitingSince ? `:hourglass_flowing_sand: open, waiting since ${clock(r.waitingSince)}` : ':hourglass_flowing_sand: open';
}

/** One list as a section's text: a line a conversation, "and N more" past the lines shown (within Slack's 3000 characters). */
export function inboxListText(title: string, list: InboxList, empty: string): string {
  if (list.total === 0) return `*${title}*\n${empty}`;
  const lines = list.rows.map((r) => {
    const label = `#${r.number} · ${escapeMrkdwn(r.name.length > 60 ? `${r.name.slice(0, 59)}…` : r.name)}`;
    const flag = r.missed ? ' · :rotating_light: *past its response target*' : '';
    return `• ${r.link ? `<${r.link}|${label}>` : label}: ${stateText(r)}${flag}`;
  });
  const more = list.total - list.rows.length;
  if (more > 0) lines.push(`…and ${more} more`);
  return `*${title}* (${list.total})\n${lines.join('\n')}`.slice(0, 3000);
}

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

function waitingText(w: HomeWidget): string {
  if (w.waiting.length === 0) return 'No conversation is waiting for an answer.';
  const lines = w.waiting.map((c) => {
    const label = `#${c.number} · ${escapeMrkdwn(c.name)}`;
    // Slack shows the time in the reader's own time zone; the text stays the same, so an unchanged home is not republished.
    const since = `<!date^${Math.floor(c.since.getTime() / 1000)}^{time}|${c.since.toISOString().slice(11, 16)} UTC>`;
    const mark = c.proof === 'verified' ? ` ${VERIFIED_MARK}` : c.proof === 'unverified' ? ` ${UNVERIFIED_MARK}` : '';
    return `• ${c.link ? `<${c.link}|${label}>` : label}${mark}, waiting since ${since}`;
  });
  return `*Waiting for an answer*\n${lines.join('\n')}`;
}

export function homeView(input: { consoleUrl: string; widgets: HomeWidget[] }): { type: 'home'; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [{ type: 'header', text: plain('Parley live chat') }];
  if (input.widgets.length === 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `No website chat is linked to a channel you are in. <${input.consoleUrl}|Open the Parley console> to add a widget, pick its channel and copy the embed code to your site; then join that channel here.`,
      },
    });
    return { type: 'home', blocks };
  }
  for (const w of input.widgets) {
    const state = w.online ? ':large_green_circle: *Online*' : ':white_circle: *Offline*';
    const buttons: types.Button[] = [
      w.off || !w.online
        ? { type: 'button', action_id: HOME_ACTIONS.goOnline, text: plain('Go online'), value: w.id, style: 'primary' }
        : { type: 'button', action_id: HOME_ACTIONS.goOffline, text: plain('Go offline'), value: w.id },
      {
        type: 'button',
        action_id: HOME_ACTIONS.manualMode,
        text: plain(w.manualMode ? 'Manual mode: on' : 'Manual mode: off'),
        value: w.id,
      },
      { type: 'button', action_id: HOME_ACTIONS.operatingHours, text: plain('Operating hours'), value: w.id },
      {
        type: 'button',
        action_id: HOME_ACTIONS.openSettings,
        text: plain('Open settings'),
        value: w.id,
        url: `${input.consoleUrl}#/settings/${w.id}/behavior`,
      },
    ];
    blocks.push(
      { type: 'divider' },
      {
        type: 'section',
        block_id: `widget_${w.id}`,
        text: { type: 'mrkdwn', text: `<#${w.channelId}> (${escapeMrkdwn(w.channelName)})\n${state}: ${w.why}` },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Today: *${w.today}* · Last 30 days: *${w.last30Days}*` }] },
      { type: 'section', text: { type: 'mrkdwn', text: waitingText(w) } },
      {
        type: 'section',
        block_id: `mine_${w.id}`,
        text: { type: 'mrkdwn', text: inboxListText('Mine', w.mine, 'No open conversation is assigned to you.') },
      },
      {
        type: 'section',
        block_id: `unassigned_${w.id}`,
        text: { type: 'mrkdwn', text: inboxListText('Unassigned', w.unassigned, 'Every open conversation has someone.') },
      },
      { type: 'actions', block_id: `home_${w.id}`, elements: buttons },
    );
  }
  return { type: 'home', blocks: blocks.slice(0, 100) };
}
