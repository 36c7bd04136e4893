import { expect } from 'chai';
import { WidgetSettingsSchema } from '../../server/commands/updateWidgetSettings';
import { CHAT_ENDPOINT_DEFAULTS } from '../../server/models/ChatEndpoint';
import type { ChatEndpointSettings } from '../../server/shared/types';
import { APPEARANCE_SECTIONS } from '../../web/console/scenes/settings/appearanceFields';
import { BEHAVIOR_SECTIONS } from '../../web/console/scenes/settings/behaviorFields';
import {
  descriptionsOf,
  type FieldContext,
  type FieldSection,
  type SelectField,
  type TextField,
} from '../../web/console/scenes/settings/fields';
import { settingFields } from '../../web/console/scenes/settings/settingFields';

/** A context for the descriptions' functions: a new widget's settings, Slack history readable, a white label plan. */
const settings: ChatEndpointSettings = { ...CHAT_ENDPOINT_DEFAULTS, operatingHours: [], textOverrides: {}, tags: [] };
const context = {
  v: settings,
  ce: settings,
  set: () => undefined,
  patch: () => undefined,
  history: true,
  whiteLabel: true,
  language: '',
  limitInput: '0',
} as unknown as FieldContext;
// The descriptions' functions read only what `context` has of each tab's context.
const sections = [...BEHAVIOR_SECTIONS, ...APPEARANCE_SECTIONS] as unknown as readonly FieldSection<FieldContext>[];
const accepted = (key: string, value: unknown) => WidgetSettingsSchema.safeParse({ [key]: value }).success;

describe('settings forms from field descriptions', () => {
  it('describes every setting the API takes exactly once, and nothing the API does not take', () => {
    const schemaKeys = Object.keys(WidgetSettingsSchema.shape).sort();
    const described = settingFields().map((f) => f.key);
    const twice = described.filter((key, i) => described.indexOf(key) !== i);
    expect(twice, 'settings described more than once').to.deep.equal([]);
    expect(
      schemaKeys.filter((key) => !described.includes(key as never)),
      'settings of the API schema without a field description',
    ).to.deep.equal([]);
    expect(
      described.filter((key) => !schemaKeys.includes(key)),
      'field descriptions of no setting',
    ).to.deep.equal([]);
  });

  it('offers in every select only choices the API accepts for that setting, and the choice the setting has by default', () => {
    const selects = descriptionsOf(sections).filter((f): f is SelectField<FieldContext> => f.kind === 'select');
    expect(selects.map((f) => f.key)).to.include.members(['responseRemindersFreq', 'noAnswerMessageAfterSecs', 'tz', 'collapsedMode']);
    for (const f of selects) {
      const options = typeof f.options === 'function' ? f.options(context) : f.options;
      for (const option of options) expect(accepted(f.key, option.value), `${f.key} = ${option.value}`).to.equal(true);
      expect(
        options.map((o) => o.value),
        f.key,
      ).to.include(settings[f.key]);
    }
  });

  it('checks text fields as typed by the rules the API applies: what the field refuses the API refuses, what it takes the API takes', () => {
    const candidates = [
      '',
      'nope',
      'ftp://example.com',
      'https://example.com/hook',
      'team@example.com',
      'x@',
      '(a',
      '/checkout /admin/.*',
      'US, CA',
      'us, xx',
      'x'.repeat(51),
      'Hello',
    ];
    const checked = descriptionsOf(sections).filter((f): f is TextField<FieldContext> => f.kind === 'text' && f.check !== undefined);
    expect(checked.map((f) => f.key)).to.include.members([
      'offlineMessageWebhookURL',
      'transcriptRecipient',
      'blacklistedUrls',
      'countryAllowList',
      'onlineTitle',
      'privacyPolicyLinkURL',
    ]);
    for (const f of checked) {
      if (!f.check) continue;
      for (const value of candidates) {
        const refused = f.check(value, context) !== null;
        expect(accepted(f.key, value), `${f.key} = ${JSON.stringify(value)}`).to.equal(!refused);
      }
    }
  });
});
