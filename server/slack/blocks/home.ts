/**
 * The App Home tab: the widgets linked to channels of the workspace, whether each is online and why,
 * its conversation counts, and links to the console. Links are mrkdwn links, not buttons, so opening
 * them sends Parley nothing to answer.
 */
import type { types } from '@slack/bolt';

type KnownBlock = types.KnownBlock;

export type HomeWidget = {
  id: string;
  channelId: string;
  channelName: string;
  off: boolean;
  manualMode: boolean;
  status: 'online' | 'offline';
  today: number;
  last30Days: number;
};

/** Slack mrkdwn escaping of text Parley did not write. */
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function availability(w: HomeWidget): string {
  if (w.off) return ':white_circle: *Offline*: turned off in Parley';
  if (w.manualMode) return ':large_green_circle: *Online*: manual mode';
  return w.status === 'online'
    ? ':large_green_circle: *Online*: someone in the channel is active in Slack'
    : ':white_circle: *Offline*: nobody in the channel is active in Slack, or outside operating hours';
}

export function homeView(input: { consoleUrl: string; widgets: HomeWidget[] }): { type: 'home'; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: 'Parley live chat' } }];
  if (input.widgets.length === 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `No website chat is linked to a channel of this workspace yet. <${input.consoleUrl}|Open the Parley console> to add a widget, pick its channel and copy the embed code to your site.`,
      },
    });
    return { type: 'home', blocks };
  }
  for (const w of [...input.widgets].sort((a, b) => a.channelName.localeCompare(b.channelName))) {
    blocks.push(
      { type: 'divider' },
      { type: 'section', text: { type: 'mrkdwn', text: `<#${w.channelId}> (${esc(w.channelName)})\n${availability(w)}` } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `Today: *${w.today}* · Last 30 days: *${w.last30Days}* · <${input.consoleUrl}#/settings/${w.id}/behavior|Open settings>`,
          },
        ],
      },
    );
  }
  return { type: 'home', blocks };
}
