import { expect } from 'chai';
import { escapeHtml } from '../server/escapeHtml';
import { invitationMail } from '../server/mail/templates';

describe('escapeHtml', () => {
  it('turns every character that could open a tag or close an attribute into an entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).to.equal(
      '&lt;a href=&quot;x&quot; title=&#x27;y&#x27;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('keeps a name with markup in it as text in the invitation mail', async () => {
    const mail = await invitationMail('new@example.com', '<img src=x onerror=alert(1)> Eve', 'https://parley.test/join?t=a&b', 7);
    expect(mail.html).to.include('&lt;img src=x onerror=alert(1)&gt; Eve invited you');
    expect(mail.html).to.include('href="https://parley.test/join?t=a&amp;b"');
    expect(mail.html).not.to.include('<img');
  });
});
