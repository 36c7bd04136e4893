/**
 * Appearance (spec sections 2, 3 Appearance, privacy and alignment, 5): the form of APPEARANCE_SECTIONS
 * (appearanceFields.tsx, one description per setting) with one sticky Save Changes for the page (as Behavior),
 * its texts edited for all languages or for the language picked, and the live preview of the real widget beside
 * the form.
 */
import { type FormEvent, useState } from 'react';
import { VISITOR_SETTING_KEYS } from '../../../../../server/shared/widget-config';
import {
  directionOf,
  isOwnerTextKey,
  localizedOwnerTexts,
  type OwnerTextKey,
  type TextOverrides,
  type WidgetLocale,
} from '../../../../../server/shared/widget-texts';
import { useUser } from '../../../session/session';
import { APPEARANCE_SECTIONS, type AppearanceContext, type PrivacySpot } from '../appearanceFields';
import { draftKeys, FieldSections, hasProblem, inputProps, type TextField } from '../fields';
import { canReadHistory, Input, useDraft } from '../form';
import { SaveButton, useSaveButton } from '../saveButton';
import type { SettingsTabProps } from '../types';
import { type PreviewSettings, WidgetPreview } from '../WidgetPreview';
import { useWidgetTexts } from '../widgetTexts';

const KEYS = draftKeys(APPEARANCE_SECTIONS);

export default function AppearanceTab({ ce, save, setDirty }: SettingsTabProps) {
  const draft = useDraft(ce, KEYS, setDirty);
  const whiteLabel = Boolean(useUser().account.plan.whiteLabel);
  const v = { ...ce, ...draft.values };
  const [spot, setSpot] = useState<PrivacySpot>(null);
  const set = draft.set;
  const [language, setLanguage] = useState<WidgetLocale | ''>('');
  const stock = useWidgetTexts('en');
  const shownLocale: WidgetLocale = language || 'en';
  const builtIn = useWidgetTexts(shownLocale);
  const overrides: TextOverrides = v.textOverrides ?? {};
  const mine = language ? (overrides[language] ?? {}) : {};
  const setOverride = (field: OwnerTextKey, value: string) => {
    if (!language) return;
    const texts = { ...(overrides[language] ?? {}) };
    if (value === '') delete texts[field];
    else texts[field] = value;
    const next = { ...overrides };
    if (Object.keys(texts).length > 0) next[language] = texts;
    else delete next[language];
    set('textOverrides', next);
  };
  /** What the chosen language's visitors see when its field is empty: the owner's changed text, else the translation. */
  const fallback = (field: OwnerTextKey) => (stock && v[field] !== stock[field] ? v[field] : (builtIn?.[field] ?? ''));
  /**
   * A text field: a widget text edits the chosen language's override (its placeholder what that language's
   * visitors get now), its rule's message shown for all languages only; a text without overrides is locked then.
   */
  const text = (f: TextField<AppearanceContext>, c: AppearanceContext) => {
    const props = inputProps(f, c);
    if (isOwnerTextKey(f.key)) {
      const key = f.key;
      const bound = language
        ? { value: mine[key] ?? '', placeholder: fallback(key), onChange: (t: string) => setOverride(key, t), error: null }
        : {};
      return <Input {...props} {...bound} />;
    }
    if (f.everyLanguage) {
      return <Input {...props} disabled={props.disabled || language !== ''} hint={language ? 'The same in every language.' : props.hint} />;
    }
    return <Input {...props} />;
  };
  const c: AppearanceContext = {
    v,
    ce,
    set,
    patch: draft.patch,
    language,
    setLanguage,
    ownTexts: Object.keys(mine).length,
    whiteLabel,
    history: canReadHistory(ce),
    spot,
    setSpot,
  };
  const blocked = hasProblem(APPEARANCE_SECTIONS, c);
  const button = useSaveButton();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked || !draft.dirty) return;
    await button.run(() => save(draft.changes));
  };
  const preview = {} as Record<string, unknown>;
  for (const k of VISITOR_SETTING_KEYS) preview[k] = v[k];
  // The preview speaks the chosen language (English for all languages), with the texts its visitors would get.
  if (stock && builtIn) Object.assign(preview, localizedOwnerTexts(v, overrides, shownLocale, builtIn, stock));

  return (
    <div className="appearance">
      <form className="appearance__form" onSubmit={submit} noValidate>
        <FieldSections sections={APPEARANCE_SECTIONS} c={c} text={text} />

        <p className="muted appearance__css">
          Need more? Every part of the widget can be restyled with your own CSS: see <a href="/docs">the customization docs</a>.
        </p>
        <div className="settings-actions">
          <SaveButton id="save-appearance" state={button.state} disabled={blocked || (!draft.dirty && button.state === 'idle')} />
          {draft.dirty && <span className="muted">{blocked ? 'Fix the fields marked above to save' : 'Unsaved changes'}</span>}
        </div>
      </form>
      <WidgetPreview
        settings={preview as PreviewSettings}
        widgetId={ce.Uuid}
        poweredBy={whiteLabel ? null : '/pricing'}
        language={builtIn ? { locale: shownLocale, dir: directionOf(shownLocale), texts: builtIn.ui } : null}
      />
    </div>
  );
}
