import { expect } from 'chai';
import { botsStatusText } from '../../server/shared/bots';
import { planUnlocking } from '../../server/shared/plans';
import { hoursOverlap, settingLabel, TITLE_MAX_CHARS, titleProblem, webAddressProblem } from '../../server/shared/settings';

describe('settings rules the console and the API share (issue 20)', () => {
  it('names a setting in words, as the console labels it', () => {
    expect(settingLabel('offlineMessageWebhookURL')).to.equal('Offline message webhook URL');
    expect(settingLabel('onlineTitle')).to.equal('Online title');
    expect(settingLabel('segmentWriteKey')).to.equal('Segment write key');
  });

  it('takes a blank or a full http(s) address, and says how to write anything else', () => {
    for (const fine of ['', '  ', 'https://hooks.example.com/parley', 'http://localhost:3000/hook']) {
      expect(webAddressProblem(fine), fine).to.equal(null);
    }
    for (const bad of [
      'hooks.example.com/parley',
      'ftp://example.com/hook',
      'https://',
      'https://exa mple.com',
      `https://x.io/${'a'.repeat(2048)}`,
    ]) {
      expect(webAddressProblem(bad), bad).to.be.a('string');
    }
    expect(webAddressProblem('example.com')).to.equal(
      'Enter a full web address starting with https://, like https://example.com/parley-hook.',
    );
  });

  it('requires a title of at most what the header shows', () => {
    expect(titleProblem('Questions? Chat with us!')).to.equal(null);
    expect(titleProblem(' ')).to.equal('Enter a title: visitors see it at the top of the widget.');
    expect(titleProblem('x'.repeat(TITLE_MAX_CHARS))).to.equal(null);
    expect(titleProblem('x'.repeat(4000))).to.match(/^Use at most 50 characters/);
  });

  it('finds two pairs of one day that overlap, not pairs that touch or sit on other days', () => {
    expect(
      hoursOverlap([
        { weekday: 2, start: 900, end: 1700 },
        { weekday: 2, start: 1000, end: 1015 },
      ]),
    ).to.equal('Operating hours overlap on Tuesday: 09:00–17:00 and 10:00–10:15. Join them into one or change one.');
    expect(
      hoursOverlap([
        { weekday: 2, start: 900, end: 1200 },
        { weekday: 2, start: 1200, end: 1700 },
        { weekday: 3, start: 1000, end: 1100 },
      ]),
    ).to.equal(null);
  });

  it("says who joins new conversations in words, not 'Bots: 1 | Users: 0'", () => {
    expect(botsStatusText([{ botID: 'B1' }])).to.equal('1 bot joins each new conversation');
    expect(botsStatusText([{ botID: 'B1' }, { botID: '' }])).to.equal('1 bot and 1 teammate join each new conversation');
    expect(botsStatusText([{ botID: '' }, { botID: '' }])).to.equal('2 teammates join each new conversation');
  });

  it('names the cheapest plan that has a feature, for the locked tabs', () => {
    expect(planUnlocking('triggers')).to.equal('Pro');
    expect(planUnlocking('questionGroups')).to.equal('Business');
    expect(planUnlocking('savedReplies')).to.equal('Basic');
  });
});
