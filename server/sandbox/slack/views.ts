// Modals and App Home: views.open/push/update/publish rules, shared by the Web API and the sender.
import { randomBytes } from 'node:crypto';
import { SlackApiError } from './ops';
import type { PresentContext } from './present';
import type { SandboxView } from './types';

const MAX_STACK = 3;

export function newHash(): string {
  return `${Math.floor(Date.now() / 1000)}.${randomBytes(6).toString('base64url')}`;
}

const MAX_BLOCKS_MODAL = 100;
const MAX_CLOSED = 200;

/** Checks a view definition the way Slack does before accepting it. */
export function checkView(def: unknown, expected: 'modal' | 'home' | 'any'): Record<string, unknown> {
  if (typeof def !== 'object' || def === null || Array.isArray(def))
    throw new SlackApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: view'] } });
  const v = def as Record<string, unknown>;
  const type = v.type;
  if (type !== 'modal' && type !== 'home')
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] must provide a valid view type [json-pointer:/view/type]'] },
    });
  if (expected !== 'any' && type !== expected)
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: [`[ERROR] view type must be ${expected} [json-pointer:/view/type]`] },
    });
  if (!Array.isArray(v.blocks))
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] missing required field: blocks [json-pointer:/view/blocks]'] },
    });
  if (v.blocks.length > MAX_BLOCKS_MODAL)
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] must provide an array with no more than 100 items [json-pointer:/view/blocks]'] },
    });
  if (type === 'modal') {
    const title = v.title as Record<string, unknown> | undefined;
    if (!title || typeof title.text !== 'string')
      throw new SlackApiError('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] missing required field: title [json-pointer:/view/title]'] },
      });
    if (title.text.length > 24)
      throw new SlackApiError('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'] },
      });
    const hasInput = v.blocks.some((b) => (b as Record<string, unknown>)?.type === 'input');
    if (hasInput && !v.submit)
      throw new SlackApiError('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] must provide submit when blocks contain input [json-pointer:/view/submit]'] },
      });
  }
  // Slack fills in the block_id and action_id the app left out, and the view it returns carries them.
  for (const b of v.blocks as unknown[]) {
    if (typeof b !== 'object' || b === null) continue;
    const block = b as Record<string, unknown>;
    if (typeof block.block_id !== 'string' || block.block_id === '') block.block_id = randomBytes(3).toString('base64url');
    const el = block.element as Record<string, unknown> | undefined;
    if (el && typeof el === 'object' && (typeof el.action_id !== 'string' || el.action_id === ''))
      el.action_id = randomBytes(3).toString('base64url');
  }
  if (typeof v.private_metadata === 'string' && v.private_metadata.length > 3000)
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]'] },
    });
  return v;
}

/** Exchanges a trigger_id: valid for a few seconds, once. */
export function useTrigger(ctx: PresentContext, triggerId: unknown, teamId: string): { userId: string } {
  if (typeof triggerId !== 'string' || triggerId === '')
    throw new SlackApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: trigger_id'] } });
  const t = ctx.state.triggers.get(triggerId);
  if (!t || t.teamId !== teamId) throw new SlackApiError('invalid_trigger_id');
  if (t.used) throw new SlackApiError('exchanged_trigger_id');
  if (Date.now() > t.expiresAt) throw new SlackApiError('expired_trigger_id');
  t.used = true;
  return { userId: t.userId };
}

function newView(
  ctx: PresentContext,
  teamId: string,
  user: string,
  def: Record<string, unknown>,
  previous: SandboxView | null,
): SandboxView {
  const id = ctx.state.nextId('V');
  const view: SandboxView = {
    id,
    teamId,
    user,
    type: def.type as 'modal' | 'home',
    definition: def,
    hash: newHash(),
    rootViewId: previous?.rootViewId ?? id,
    previousViewId: previous?.id ?? null,
    externalId: typeof def.external_id === 'string' ? def.external_id : '',
    values: {},
    open: true,
  };
  if (view.externalId && ctx.state.data.views.some((v) => v.externalId === view.externalId && v.teamId === teamId))
    throw new SlackApiError('duplicate_external_id');
  ctx.state.data.views.push(view);
  // Closed modals are kept a while for inspection, then forgotten.
  const closed = ctx.state.data.views.filter((v) => v.type === 'modal' && !v.open);
  if (closed.length > MAX_CLOSED) {
    const drop = new Set(closed.slice(0, closed.length - MAX_CLOSED));
    ctx.state.data.views = ctx.state.data.views.filter((v) => !drop.has(v));
  }
  ctx.state.changed();
  return view;
}

export function openModal(ctx: PresentContext, teamId: string, userId: string, def: Record<string, unknown>): SandboxView {
  // Opening a new modal replaces whatever stack the user had open.
  for (const v of ctx.state.openModals(teamId, userId)) v.open = false;
  return newView(ctx, teamId, userId, def, null);
}

export function pushModal(ctx: PresentContext, teamId: string, userId: string, def: Record<string, unknown>): SandboxView {
  const stack = ctx.state.openModals(teamId, userId);
  if (stack.length === 0) throw new SlackApiError('not_found');
  if (stack.length >= MAX_STACK) throw new SlackApiError('push_limit_reached');
  return newView(ctx, teamId, userId, def, stack[stack.length - 1]);
}

export function updateView(ctx: PresentContext, view: SandboxView, def: Record<string, unknown>, hash?: unknown): SandboxView {
  if (typeof hash === 'string' && hash !== '' && hash !== view.hash) throw new SlackApiError('hash_conflict');
  view.definition = def;
  view.hash = newHash();
  view.errors = undefined;
  if (typeof def.external_id === 'string') view.externalId = def.external_id;
  ctx.state.changed();
  return view;
}

export function publishHome(
  ctx: PresentContext,
  teamId: string,
  userId: string,
  def: Record<string, unknown>,
  hash?: unknown,
): SandboxView {
  const existing = ctx.state.homeView(teamId, userId);
  if (existing) return updateView(ctx, existing, def, hash);
  return newView(ctx, teamId, userId, def, null);
}
