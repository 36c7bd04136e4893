import { expect } from 'chai';
import { renderMailLayout } from '../../server/mail/layout';

describe('the mail layout', () => {
  it('links no web font or style sheet: a mail fetches nothing from a third party (MJML would link Google Fonts)', async () => {
    const html = await renderMailLayout({
      lang: 'en',
      dir: 'ltr',
      color: '#2f6fed',
      fontColor: '#ffffff',
      header: 'Northwind',
      preview: 'A reply is waiting',
      body: '<p>Hello</p>',
      footer: '',
    });
    expect(html).to.include('Northwind');
    expect(html).to.not.match(/fonts\.googleapis|<link[^>]+stylesheet|@import/);
  });
});
