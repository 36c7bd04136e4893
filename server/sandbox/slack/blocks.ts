// Finding interactive elements in Block Kit and shaping what Slack sends when one is used.
import { isRecord } from './sender';

export interface FoundElement {
  blockId: string;
  element: Record<string, unknown>;
}

/** Finds the element with `actionId` (and `blockId` when given) in actions, section accessories and inputs. */
export function findElement(blocks: unknown, actionId: string, blockId?: string): FoundElement | null {
  if (!Array.isArray(blocks)) return null;
  for (const b of blocks) {
    if (!isRecord(b)) continue;
    const bid = typeof b.block_id === 'string' ? b.block_id : '';
    if (blockId && bid !== blockId) continue;
    const candidates: unknown[] = [];
    if (Array.isArray(b.elements)) candidates.push(...b.elements);
    if (b.accessory) candidates.push(b.accessory);
    if (b.element) candidates.push(b.element);
    for (const e of candidates) {
      if (isRecord(e) && e.action_id === actionId) return { blockId: bid, element: e };
    }
  }
  return null;
}

function optionsOf(element: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (Array.isArray(element.options)) out.push(...element.options.filter(isRecord));
  if (Array.isArray(element.option_groups)) {
    for (const g of element.option_groups) if (isRecord(g) && Array.isArray(g.options)) out.push(...g.options.filter(isRecord));
  }
  return out;
}

function option(element: Record<string, unknown>, value: string): Record<string, unknown> {
  return optionsOf(element).find((o) => o.value === value) ?? { text: { type: 'plain_text', text: value, emoji: true }, value };
}

/** The `actions[0]` entry of a block_actions payload for a use of `found` (a press, or a choice of `value`). */
export function actionPayload(
  found: FoundElement | null,
  actionId: string,
  blockId: string | undefined,
  value: string | undefined,
): Record<string, unknown> {
  if (!found) {
    return {
      type: 'button',
      action_id: actionId,
      block_id: blockId ?? '',
      text: { type: 'plain_text', text: actionId, emoji: true },
      ...(value !== undefined ? { value } : {}),
    };
  }
  const e = found.element;
  const base = { type: e.type, action_id: actionId, block_id: found.blockId };
  switch (e.type) {
    case 'button':
      return { ...base, text: e.text, ...(e.value !== undefined ? { value: e.value } : {}), ...(e.style ? { style: e.style } : {}) };
    case 'static_select':
    case 'overflow':
    case 'radio_buttons':
      return { ...base, selected_option: option(e, value ?? '') };
    case 'checkboxes':
    case 'multi_static_select':
      return {
        ...base,
        selected_options: (value ?? '')
          .split(',')
          .filter(Boolean)
          .map((v) => option(e, v)),
      };
    case 'users_select':
      return { ...base, selected_user: value };
    case 'conversations_select':
      return { ...base, selected_conversation: value };
    case 'channels_select':
      return { ...base, selected_channel: value };
    case 'datepicker':
      return { ...base, selected_date: value };
    case 'timepicker':
      return { ...base, selected_time: value };
    default:
      return { ...base, value };
  }
}

/** Turns a typed value into the state.values entry Slack keeps for an input element. */
function stateValue(element: Record<string, unknown> | undefined, value: unknown): Record<string, unknown> {
  if (isRecord(value) && typeof value.type === 'string') return value;
  const type = typeof element?.type === 'string' ? element.type : 'plain_text_input';
  const v = value === undefined || value === null ? '' : Array.isArray(value) ? value.map(String).join(',') : String(value);
  switch (type) {
    case 'static_select':
    case 'radio_buttons':
      return { type, selected_option: v ? option(element ?? {}, v) : null };
    case 'checkboxes':
    case 'multi_static_select':
      return {
        type,
        selected_options: v
          .split(',')
          .filter(Boolean)
          .map((x) => option(element ?? {}, x)),
      };
    case 'users_select':
      return { type, selected_user: v || null };
    case 'conversations_select':
      return { type, selected_conversation: v || null };
    case 'channels_select':
      return { type, selected_channel: v || null };
    case 'datepicker':
      return { type, selected_date: v || null };
    case 'timepicker':
      return { type, selected_time: v || null };
    case 'number_input':
      return { type, value: v || null };
    default:
      return { type, value: v === '' ? null : v };
  }
}

/** Builds `state.values` for a view from simple `{ blockId: { actionId: value } }` input, filling every input block. */
export function viewValues(
  blocks: unknown,
  typed: Record<string, Record<string, unknown>> | undefined,
): Record<string, Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, Record<string, unknown>>> = {};
  if (!Array.isArray(blocks)) return out;
  for (const b of blocks) {
    if (!isRecord(b) || b.type !== 'input' || !isRecord(b.element)) continue;
    const blockId = typeof b.block_id === 'string' ? b.block_id : '';
    const actionId = typeof b.element.action_id === 'string' ? b.element.action_id : '';
    const typedValue = typed?.[blockId]?.[actionId];
    const initial = initialValue(b.element);
    out[blockId] = { [actionId]: stateValue(b.element, typedValue !== undefined ? typedValue : initial) };
  }
  return out;
}

/** Slack refuses a submission whose required inputs are empty before the app ever sees it. */
export function missingRequired(blocks: unknown, values: Record<string, Record<string, Record<string, unknown>>>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!Array.isArray(blocks)) return errors;
  for (const b of blocks) {
    if (!isRecord(b) || b.type !== 'input' || b.optional === true || !isRecord(b.element)) continue;
    const blockId = typeof b.block_id === 'string' ? b.block_id : '';
    const entry = Object.values(values[blockId] ?? {})[0];
    const empty =
      !entry ||
      ((entry.value === null || entry.value === '' || entry.value === undefined) &&
        !entry.selected_option &&
        !(Array.isArray(entry.selected_options) && entry.selected_options.length > 0) &&
        !entry.selected_user &&
        !entry.selected_conversation &&
        !entry.selected_channel &&
        !entry.selected_date &&
        !entry.selected_time);
    if (empty) errors[blockId] = 'Please complete this required field.';
  }
  return errors;
}

/** What an input shows before the user touches it (its initial_* field), as a typed value. */
function initialValue(e: Record<string, unknown>): unknown {
  if (e.initial_value !== undefined) return e.initial_value;
  if (isRecord(e.initial_option)) return e.initial_option.value;
  if (Array.isArray(e.initial_options)) return e.initial_options.filter(isRecord).map((o) => String(o.value));
  return e.initial_time ?? e.initial_date ?? e.initial_user ?? e.initial_conversation ?? e.initial_channel;
}
