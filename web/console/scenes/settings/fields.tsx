/**
 * Settings forms from descriptions: one description per setting (its key, label, help text, control, and the
 * shared rule of server/shared/settings.ts that the API's schema applies to it too), laid out in sections. A tab
 * renders its list with <FieldSections>, drafts the keys the list names (`draftKeys`) and saves only while no
 * described check finds a problem (`hasProblem`); a new setting is one entry in its tab's list.
 * `SETTING_FIELDS` (settingFields.ts) gathers every tab's descriptions; a unit spec holds it to the API's schema.
 */
import { Fragment, type ReactNode } from 'react';
import type { ChatEndpointSettings, ChatEndpointView } from '../../../../server/shared';
import { Check, Input, type Key, Radios, Section, Select, YesNo } from './form';
import type { SettingsChanges } from './types';

/** What the functions of a description read: the draft over the saved widget, the saved widget, and setters. */
export type FieldContext = {
  v: ChatEndpointSettings;
  ce: ChatEndpointView;
  set: <F extends Key>(field: F, value: ChatEndpointSettings[F]) => void;
  patch: (fields: SettingsChanges) => void;
};

/** A setting a description names: a key of the settings, or `off` (the on/off switch, which has its own call). */
export type FieldKey = Key | 'off';
type KeyOf<T> = { [K in Key]: ChatEndpointSettings[K] extends T ? K : never }[Key];
export type BooleanKey = KeyOf<boolean>;
export type TextKey = KeyOf<string>;
/** A value, or a function of the context that answers it. */
type Live<T, C> = T | ((c: C) => T);
export type Choice<V> = { value: V; label: string };

/** A checkbox with a label and an optional hint. */
export type CheckField<C> = {
  kind: 'check';
  key: BooleanKey;
  label: string;
  hint?: Live<ReactNode, C>;
  disabled?: (c: C) => boolean;
};

/** A text input (or textarea). */
export type TextField<C> = {
  kind: 'text';
  key: TextKey;
  label: string;
  hint?: Live<ReactNode, C>;
  placeholder?: Live<string, C>;
  type?: 'url' | 'email';
  multiline?: true;
  maxLength?: number;
  disabled?: (c: C) => boolean;
  /** What is wrong with the value (the rule the API applies too), or null; shown under the field, and saving waits. */
  check?: (value: string, c: C) => string | null;
  /** What the field shows, when not the setting's value as it is. */
  shown?: (c: C) => string;
  /** A change that touches other settings too; by default the setting takes the text. */
  change?: (text: string, c: C) => void;
  onFocus?: (c: C) => void;
  onBlur?: (c: C) => void;
  /** A text with no per-language override (Appearance): locked while the form edits one language's texts. */
  everyLanguage?: true;
};

/** A select of fixed choices (numbers or words). */
export type SelectField<C> = {
  kind: 'select';
  key: KeyOf<string | number>;
  label: string;
  hint?: Live<ReactNode, C>;
  options: Live<readonly Choice<string | number>[], C>;
  disabled?: (c: C) => boolean;
};

/** Radio buttons; `choice`/`choose` map a setting that is not itself one of the choices (a flag). */
export type RadiosField<C> = {
  kind: 'radios';
  key: Key;
  label: string;
  name: string;
  options: readonly Choice<string>[];
  choice?: (c: C) => string;
  choose?: (choice: string, c: C) => void;
};

/** Yes and No radios for a flag. */
export type YesNoField<C> = { kind: 'yesNo'; key: BooleanKey; label: string; name: string; onFocus?: (c: C) => void };

/**
 * A control of its own (a colour picker, the concurrent-chat limit, the avatar choice that sets four flags).
 * `ownCall`: saved by a call of its own (the on/off switch, the team avatar upload), not through the draft.
 */
export type CustomField<C> = {
  kind: 'custom';
  keys: readonly FieldKey[];
  render: (c: C) => ReactNode;
  problem?: (c: C) => boolean;
  ownCall?: true;
};

export type FieldDescription<C> = CheckField<C> | TextField<C> | SelectField<C> | RadiosField<C> | YesNoField<C> | CustomField<C>;
/** A description, a box (a div of that class: 'settings-grid', 'stack-sm' …) of items, or a piece that is no setting. */
export type FieldItem<C> = FieldDescription<C> | { box: string; items: readonly FieldItem<C>[] } | { node: (c: C) => ReactNode };
export type FieldSection<C> = { title: string; intro?: Live<ReactNode, C>; items: readonly FieldItem<C>[] };

const at = <T, C>(value: Live<T, C> | undefined, c: C): T | undefined => (typeof value === 'function' ? (value as (c: C) => T)(c) : value);

/** Every description of `sections`, in order. */
export function descriptionsOf<C>(sections: readonly FieldSection<C>[]): FieldDescription<C>[] {
  const out: FieldDescription<C>[] = [];
  const walk = (items: readonly FieldItem<C>[]) => {
    for (const item of items) {
      if ('box' in item) walk(item.items);
      else if ('kind' in item) out.push(item);
    }
  };
  for (const section of sections) walk(section.items);
  return out;
}

/** The settings a description edits. */
export function keysOf<C>(field: FieldDescription<C>): readonly FieldKey[] {
  return field.kind === 'custom' ? field.keys : [field.key];
}

/** The settings the tab's draft holds: all that its descriptions edit, but those saved by a call of their own. */
export function draftKeys<C>(sections: readonly FieldSection<C>[]): Key[] {
  return descriptionsOf(sections)
    .filter((f) => f.kind !== 'custom' || !f.ownCall)
    .flatMap((f) => keysOf(f))
    .filter((k): k is Key => k !== 'off');
}

/** True while a described check finds a problem: the tab does not save then. */
export function hasProblem<C extends FieldContext>(sections: readonly FieldSection<C>[], c: C): boolean {
  return descriptionsOf(sections).some((f) => {
    if (f.kind === 'text') return f.check !== undefined && f.check(String(c.v[f.key]), c) !== null;
    if (f.kind === 'custom') return f.problem?.(c) ?? false;
    return false;
  });
}

/** The props of <Input> a text description gives (a tab may change some, as Appearance does per language). */
export function inputProps<C extends FieldContext>(f: TextField<C>, c: C): Parameters<typeof Input>[0] {
  const { onFocus, onBlur } = f;
  return {
    label: f.label,
    type: f.type,
    multiline: f.multiline,
    maxLength: f.maxLength,
    placeholder: at(f.placeholder, c),
    value: f.shown ? f.shown(c) : String(c.v[f.key]),
    error: f.check ? f.check(String(c.v[f.key]), c) : null,
    hint: at(f.hint, c),
    disabled: f.disabled?.(c),
    onChange: (text) => (f.change ? f.change(text, c) : c.set(f.key, text)),
    onFocus: onFocus && (() => onFocus(c)),
    onBlur: onBlur && (() => onBlur(c)),
  };
}

function Field<C extends FieldContext>({ f, c, text }: { f: FieldDescription<C>; c: C; text?: (f: TextField<C>, c: C) => ReactNode }) {
  switch (f.kind) {
    case 'check':
      return (
        <Check
          label={f.label}
          hint={at(f.hint, c)}
          checked={c.v[f.key]}
          disabled={f.disabled?.(c)}
          onChange={(checked) => c.set(f.key, checked)}
        />
      );
    case 'text':
      return text ? text(f, c) : <Input {...inputProps(f, c)} />;
    case 'select':
      return (
        <Select
          label={f.label}
          hint={at(f.hint, c)}
          value={c.v[f.key]}
          options={at(f.options, c) ?? []}
          disabled={f.disabled?.(c)}
          onChange={(value) => c.set(f.key, value as never)}
        />
      );
    case 'radios': {
      const { choice, choose } = f;
      return (
        <Radios
          legend={f.label}
          name={f.name}
          value={choice ? choice(c) : String(c.v[f.key])}
          options={f.options}
          onChange={(value) => (choose ? choose(value, c) : c.set(f.key, value as never))}
        />
      );
    }
    case 'yesNo': {
      const { onFocus } = f;
      return (
        <YesNo
          legend={f.label}
          name={f.name}
          value={c.v[f.key]}
          onChange={(value) => c.set(f.key, value)}
          onFocus={onFocus && (() => onFocus(c))}
        />
      );
    }
    case 'custom':
      return f.render(c);
  }
}

function Items<C extends FieldContext>({
  items,
  c,
  text,
}: {
  items: readonly FieldItem<C>[];
  c: C;
  text?: (f: TextField<C>, c: C) => ReactNode;
}) {
  // Constant lists, never reordered: an item's index is its identity.
  return items.map((item, i) => {
    if ('box' in item) {
      return (
        <div key={i} className={item.box}>
          <Items items={item.items} c={c} text={text} />
        </div>
      );
    }
    if ('node' in item) return <Fragment key={i}>{item.node(c)}</Fragment>;
    return <Field key={i} f={item} c={c} text={text} />;
  });
}

/** The sections of a tab, each a card with its title, intro and fields; `text` renders text fields its own way. */
export function FieldSections<C extends FieldContext>({
  sections,
  c,
  text,
}: {
  sections: readonly FieldSection<C>[];
  c: C;
  text?: (f: TextField<C>, c: C) => ReactNode;
}) {
  return sections.map((section) => (
    <Section key={section.title} title={section.title} intro={at(section.intro, c)}>
      <Items items={section.items} c={c} text={text} />
    </Section>
  ));
}
