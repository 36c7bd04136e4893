import { expect } from 'chai';
import { escapeMrkdwn, unescapeMrkdwn } from '../../server/shared/mrkdwn';

describe('Slack mrkdwn escaping', () => {
  it('escapes what would otherwise become a link or a mention, and leaves quotes and formatting marks as typed', () => {
    expect(escapeMrkdwn('<!channel> see <https://evil.test|here> & "*bold*"')).to.equal(
      '&lt;!channel&gt; see &lt;https://evil.test|here&gt; &amp; "*bold*"',
    );
  });

  it('gives back exactly the text that was escaped, an entity typed as text included', () => {
    for (const text of ['Tom & Jerry <3', 'a literal &lt; typed', '&amp;&gt;&lt;', '']) {
      expect(unescapeMrkdwn(escapeMrkdwn(text))).to.equal(text);
    }
  });

  it('reads &amp;lt; as the text &lt;, not as <', () => {
    expect(unescapeMrkdwn('&amp;lt;b&amp;gt;')).to.equal('&lt;b&gt;');
  });
});
