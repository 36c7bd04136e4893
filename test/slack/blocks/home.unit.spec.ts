import { expect } from 'chai';
import { type HomeWidget, homeView, type InboxRow, inboxListText } from '../../../server/slack/blocks/home';

const row = (number: number, over: Partial<InboxRow> = {}): InboxRow => ({
  number,
  name: `Visitor ${number}`,
  link: `https://acme.slack.com/archives/C1/p${number}`,
  state: 'open',
  waitingSince: new Date('2026-11-27T09:00:00Z'),
  snoozedUntil: null,
  missed: false,
  ...over,
});

describe('App Home’s Mine and Unassigned', () => {
  it('writes a line a conversation with its state and the flag of a missed target, then how many more there are', () => {
    const text = inboxListText(
      'Mine',
      {
        rows: [
          row(1, { missed: true }),
          row(2, { state: 'waiting', waitingSince: null }),
          row(3, { state: 'snoozed', snoozedUntil: new Date('2026-11-28T09:00:00Z') }),
        ],
        total: 30,
      },
      '',
    );
    const lines = text.split('\n');
    expect(lines[0]).to.equal('*Mine* (30)');
    expect(lines[1]).to.equal(
      `• <https://acme.slack.com/archives/C1/p1|#1 · Visitor 1>: :hourglass_flowing_sand: open, waiting since <!date^${Date.parse('2026-11-27T09:00:00Z') / 1000}^{time}|2026-11-27 09:00 UTC> · :rotating_light: *past its response target*`,
    );
    expect(lines[2]).to.equal('• <https://acme.slack.com/archives/C1/p2|#2 · Visitor 2>: :speech_balloon: waiting for the visitor');
    expect(lines[3]).to.include(`:zzz: snoozed until <!date^${Date.parse('2026-11-28T09:00:00Z') / 1000}^{date_short_pretty} {time}|`);
    expect(lines[4]).to.equal('…and 27 more');
    expect(inboxListText('Unassigned', { rows: [], total: 0 }, 'Every open conversation has someone.')).to.equal(
      '*Unassigned*\nEvery open conversation has someone.',
    );
  });

  it('keeps within Slack’s limits: names escaped and shortened, a section under 3000 characters, at most 100 blocks', () => {
    const long = Array.from({ length: 8 }, (_, i) => row(i + 1, { name: `<@U123> ${'x'.repeat(500)}` }));
    const text = inboxListText('Mine', { rows: long, total: 8 }, '');
    expect(text.length).to.be.at.most(3000);
    // A visitor's name cannot mention anyone.
    expect(text).to.not.include('<@U123>');
    expect(text.split('\n')[1]?.length).to.be.below(250);
    const widget: HomeWidget = {
      id: 'w',
      channelId: 'C1',
      channelName: 'support',
      off: false,
      manualMode: false,
      online: true,
      why: 'someone is active',
      today: 0,
      last30Days: 0,
      waiting: [],
      mine: { rows: long, total: 8 },
      unassigned: { rows: long, total: 8 },
    };
    const view = homeView({ consoleUrl: 'https://parley.example/app/', widgets: Array.from({ length: 20 }, () => widget) });
    expect(view.blocks.length).to.be.at.most(100);
  });
});
