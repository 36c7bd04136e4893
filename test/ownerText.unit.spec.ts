/** Owner-written texts (saved replies, question groups): Markdown converted once for the widget, mails and Slack. */
import { expect } from 'chai';
import { renderOwnerText } from '../server/ownerText';

describe('owner texts in Markdown', () => {
  it('shows **bold**, _italic_ and [links](…) as formatting in each destination, never as raw markers', () => {
    const out = renderOwnerText('**Free** shipping over _$50_: [details](https://shop.example.com/ship?a=1&b=2)\nThanks!');
    expect(out.html).to.equal(
      '<strong>Free</strong> shipping over <em>$50</em>: <a href="https://shop.example.com/ship?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">details</a><br />Thanks!',
    );
    expect(out.text).to.equal('Free shipping over $50: details\nThanks!');
    expect(out.mrkdwn).to.equal('*Free* shipping over _$50_: <https://shop.example.com/ship?a=1&b=2|details>\nThanks!');
  });

  it('keeps the tags written before Markdown was accepted, and links bare addresses', () => {
    const out = renderOwnerText('<b>Hi</b> <a href="https://ok.example">ok</a>, see https://x.example/a_b_c or a@b.co');
    expect(out.mrkdwn).to.equal(
      '*Hi* <https://ok.example|ok>, see <https://x.example/a_b_c|https://x.example/a_b_c> or <mailto:a@b.co|a@b.co>',
    );
    expect(out.text).to.equal('Hi ok, see https://x.example/a_b_c or a@b.co');
  });

  it('drops scripts and unsafe links, and lets no text become a Slack mention or link', () => {
    const out = renderOwnerText(
      '<script>alert(1)</script>[x](javascript:alert(1)) <img src=x onerror=alert(1)> &lt;!channel&gt; <@U123> a & b',
    );
    expect(out.html).to.not.match(/<script|<img|javascript:href|onerror/);
    expect(out.html).to.not.include('href="javascript');
    expect(out.mrkdwn).to.not.match(/<[!@#]/);
    expect(out.mrkdwn).to.include('&lt;!channel&gt; &lt;@U123&gt; a &amp; b');
  });

  it('leaves lone asterisks and snake_case words as they are written', () => {
    const out = renderOwnerText('5 * 3 = 15, snake_case_name');
    expect([out.html, out.text, out.mrkdwn]).to.deep.equal([
      '5 * 3 = 15, snake_case_name',
      '5 * 3 = 15, snake_case_name',
      '5 * 3 = 15, snake_case_name',
    ]);
  });
});
