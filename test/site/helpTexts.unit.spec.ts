/** The help center pages' own texts: every widget language complete, translated, with English's placeholders. */
import { expect } from 'chai';
import { WIDGET_LOCALES } from '../../server/shared/widget-texts';
import { HELP_TEXTS, type HelpTexts } from '../../server/site/helpTexts';

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

describe('help center texts', () => {
  const en = HELP_TEXTS.en;
  const keys = Object.keys(en) as (keyof HelpTexts)[];

  for (const locale of WIDGET_LOCALES) {
    it(`${locale}: every text present and non-empty, with the English placeholders`, () => {
      const texts = HELP_TEXTS[locale];
      expect(Object.keys(texts).sort()).to.deep.equal([...keys].sort());
      for (const key of keys) {
        expect(texts[key].trim(), `${locale} ${key}`).to.not.equal('');
        expect(placeholders(texts[key]), `${locale} ${key}`).to.deep.equal(placeholders(en[key]));
      }
    });
  }

  it('is translated: no language but English reads the English search, chat and not-found texts', () => {
    for (const locale of WIDGET_LOCALES.filter((l) => l !== 'en')) {
      for (const key of ['heading', 'noResults', 'stillNeedHelp', 'chatWithUs', 'notFoundText'] as const) {
        expect(HELP_TEXTS[locale][key], `${locale} ${key}`).to.not.equal(en[key]);
      }
    }
  });

  it('keeps French punctuation on its word: a no-break space before ? ! ; : and inside « »', () => {
    const loose = Object.values(HELP_TEXTS.fr).filter((text) => / [!?;:»]|« /.test(text));
    expect(loose).to.deep.equal([]);
    expect(HELP_TEXTS.fr.heading).to.equal('Comment pouvons-nous vous aider\u202f?');
  });
});
