import { expect } from 'chai';
import { renderMrkdwn } from '../../../server/sandbox/slack/mrkdwn';

describe('the Slack sandbox renders mrkdwn as the Slack client does', () => {
  const names = { user: (id: string) => `user ${id}`, channel: (id: string) => `channel ${id}` };
  const render = (text: string) => renderMrkdwn(text, names, new Date('2026-01-01T00:00:00Z'));

  it('shows inline code, bold and italics, with the text between escaped for HTML once', () => {
    expect(render('Run `npm test` for *all* &amp; _some_ &lt;b&gt;')).to.equal(
      'Run <code>npm test</code> for <b>all</b> &amp; <i>some</i> &lt;b&gt;',
    );
    expect(render('`a "quote"` and \'single\'')).to.equal('<code>a &quot;quote&quot;</code> and &#x27;single&#x27;');
  });
});
