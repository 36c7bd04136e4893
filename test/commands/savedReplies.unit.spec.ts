import { expect } from 'chai';
import { decodeResponse, encodeResponse, renderForSlack, renderForWidget } from '../../server/commands/savedReplies';
import { matchesTriggerPhrases } from '../../server/shared/savedReplies';

describe('saved reply text', () => {
  it('matches trigger phrases as whole words or phrases, whatever the case and punctuation', () => {
    const phrases = 'price, how much , opening hours,';
    expect(matchesTriggerPhrases(phrases, 'What is the PRICE?')).to.equal(true);
    expect(matchesTriggerPhrases(phrases, 'how   much is it')).to.equal(true);
    expect(matchesTriggerPhrases(phrases, 'Your opening hours, please')).to.equal(true);
    expect(matchesTriggerPhrases(phrases, 'prices are high')).to.equal(false);
    expect(matchesTriggerPhrases(phrases, 'somehow much')).to.equal(false);
    expect(matchesTriggerPhrases(phrases, 'opening')).to.equal(false);
    expect(matchesTriggerPhrases('café', 'Un café, svp')).to.equal(true);
    expect(matchesTriggerPhrases('café', 'cafés')).to.equal(false);
    expect(matchesTriggerPhrases('a.b', 'axb')).to.equal(false);
    expect(matchesTriggerPhrases(' , ', 'anything')).to.equal(false);
  });

  it('stores a response entity-encoded and gives back exactly what was typed', () => {
    const typed = 'Tom & Jerry <b>say</b> "hi" — it\'s 5 € &amp; more';
    const stored = encodeResponse(typed);
    expect(stored).to.not.match(/[<>"'&](?!#x|amp;|lt;|gt;)/);
    expect(decodeResponse(stored)).to.equal(typed);
  });

  it('renders a response for the widget with links, bold and line breaks only', () => {
    const rendered = renderForWidget(
      'Hi <strong>there</strong>\n<a href="javascript:alert(1)">x</a> <a href="https://a.example">docs</a><img src=x onerror=alert(1)>',
    );
    expect(rendered.html).to.equal(
      'Hi <strong>there</strong><br /><a target="_blank" rel="noopener noreferrer">x</a> <a href="https://a.example" target="_blank" rel="noopener noreferrer">docs</a>',
    );
    expect(rendered.text).to.equal('Hi there\nx docs');
  });

  it('renders a response for Slack with links and bold as mrkdwn and everything else escaped', () => {
    expect(renderForSlack('See <a href="https://a.example/x?a=1&b=2">the docs</a>, <b>now</b> <!channel> & go<br>bye')).to.equal(
      'See <https://a.example/x?a=1&b=2|the docs>, *now*  &amp; go\nbye',
    );
  });
});
