import { expect } from 'chai';
import { slackToHtml, slackToText } from '../../server/slack/slackText';

describe('slackText: an operator’s Slack text as the widget shows it', () => {
  it('keeps code, bold, italics, strikes and links as formatting', () => {
    expect(slackToHtml('Run `npm start` *now* _please_ ~not later~ <https://x.example/a?b=1&amp;c=2|docs>')).to.equal(
      'Run <code>npm start</code> <strong>now</strong> <em>please</em> <s>not later</s> ' +
        '<a href="https://x.example/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">docs</a>',
    );
  });

  it('escapes markup and quotes the operator typed, through the one HTML escaper', () => {
    const html = slackToHtml(`*Tom's* &lt;img src=x onerror="alert(1)"&gt;`);
    expect(html).to.equal('<strong>Tom&#x27;s</strong> &lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(slackToText('&lt;b&gt; &amp; co')).to.equal('<b> & co');
  });

  it('answers no HTML for plain text, and a lone backtick is no code', () => {
    expect(slackToHtml("it's 5 o'clock")).to.equal('');
    expect(slackToHtml('a ` b')).to.equal('');
  });
});
