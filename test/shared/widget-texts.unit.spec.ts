/** The built-in widget texts: every language complete, placeholders kept (English is the settings' stock wording: models/ChatEndpoint.ts takes it from there). */
import { expect } from 'chai';
import { browserLanguages, pickWidgetLocale } from '../../server/conversations/widgetLanguage';
import { WIDGET_ERROR_CODES } from '../../server/shared/widget-constants';
import { directionOf, localizedOwnerTexts, OWNER_TEXT_KEYS, type UiTexts, WIDGET_LOCALES } from '../../server/shared/widget-texts';
import { BUILT_IN_TEXTS } from '../../server/shared/widget-texts/all';

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

describe('built-in widget texts', () => {
  const en = BUILT_IN_TEXTS.en;

  for (const locale of WIDGET_LOCALES) {
    it(`${locale}: every text present, non-empty, with the English placeholders`, () => {
      const texts = BUILT_IN_TEXTS[locale];
      for (const key of OWNER_TEXT_KEYS) expect(texts[key].trim(), `${locale} ${key}`).to.not.equal('');
      for (const key of Object.keys(en.ui) as (keyof UiTexts)[]) {
        if (key === 'errors') continue;
        const text = texts.ui[key] as string;
        expect(text.trim(), `${locale} ui.${key}`).to.not.equal('');
        expect(placeholders(text), `${locale} ui.${key}`).to.deep.equal(placeholders(en.ui[key] as string));
      }
      for (const code of WIDGET_ERROR_CODES) expect(texts.ui.errors[code].trim(), `${locale} ${code}`).to.not.equal('');
      expect(texts.onlineTitle.length, `${locale} onlineTitle`).to.be.at.most(50);
      expect(texts.offlineTitle.length, `${locale} offlineTitle`).to.be.at.most(50);
      if (locale !== 'en') expect(texts.ui.emptyChat).to.not.equal(en.ui.emptyChat);
    });
  }

  it("names the screenshot preview's send button for the picture, apart from the message box's Send, in every language", () => {
    for (const locale of WIDGET_LOCALES) {
      const ui = BUILT_IN_TEXTS[locale].ui;
      expect(ui.shotSend, locale).to.not.equal(ui.send);
      expect(ui.shotSend, locale).to.not.equal(BUILT_IN_TEXTS[locale].defaultSendBtnLabel);
    }
  });

  it('keeps French punctuation on its word: a no-break space before ! ? ; and :, and no line break inside Écrivez-nous', () => {
    const all: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') all.push(value);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
    };
    walk(BUILT_IN_TEXTS.fr);
    const loose = all.filter((text) => / [!?;:]/.test(text));
    expect(loose).to.deep.equal([]);
    expect(BUILT_IN_TEXTS.fr.onlineTitle).to.equal('Des questions\u202F? Écrivez\u2011nous\u202F!');
  });

  it('picks the language from the browser list with CLDR best fit, English otherwise', () => {
    expect(pickWidgetLocale(['de-DE', 'en'])).to.equal('de');
    expect(pickWidgetLocale(['pt-BR'])).to.equal('pt');
    expect(pickWidgetLocale(['zh-CN'])).to.equal('zh-Hans');
    expect(pickWidgetLocale(['iw'])).to.equal('he');
    expect(pickWidgetLocale(['pl', 'nl-BE'])).to.equal('nl');
    expect(pickWidgetLocale(['pl'])).to.equal('en');
    expect(pickWidgetLocale(['not a tag', 42, '*'])).to.equal('en');
    // The pick is kept per list: a list whose one item holds a comma (junk any visitor can send) is not the list split
    // at it, and does not decide another visitor's language.
    expect(pickWidgetLocale(['fr,de'])).to.equal('en');
    expect(pickWidgetLocale(['fr', 'de'])).to.equal('fr');
    expect(browserLanguages(['it,es'])).to.deep.equal([]);
    expect(browserLanguages(['it', 'es'])).to.deep.equal(['it', 'es']);
    expect(directionOf('ar')).to.equal('rtl');
    expect(directionOf('he')).to.equal('rtl');
    expect(directionOf('de')).to.equal('ltr');
  });

  it("resolve each text: the override for the language, else the owner's changed text, else the translation", () => {
    const settings = { ...en, offlineTitle: 'Write to Acme', autoResponseMessage: '' };
    const out = localizedOwnerTexts(settings, { de: { onlineTitle: 'Fragen an Acme?' } }, 'de', BUILT_IN_TEXTS.de, en);
    expect(out.onlineTitle).to.equal('Fragen an Acme?');
    expect(out.offlineTitle).to.equal('Write to Acme');
    // An owner who emptied the automatic answer turned it off, in every language.
    expect(out.autoResponseMessage).to.equal('');
    expect(out.offlineGreeting).to.equal(BUILT_IN_TEXTS.de.offlineGreeting);
  });
});
