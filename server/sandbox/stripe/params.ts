// Reading Stripe's form-encoded parameters (`items[0][price]=…`, `expand[]=…`) into typed values, with
// Stripe's answers for unknown, missing and malformed parameters.
import { invalidRequest, paramMissing, StripeApiError } from './errors';
import type { Metadata } from './types';

export type Params = Record<string, unknown>;

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses parameters the endpoint does not take, as Stripe does. */
export function onlyKnown(params: Params, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (key !== 'expand' && !allowed.includes(key)) {
      throw new StripeApiError(400, 'invalid_request_error', `Received unknown parameter: ${key}`, {
        code: 'parameter_unknown',
        param: key,
      });
    }
  }
}

export function str(params: Params, key: string, name = key): string | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalidRequest(`Invalid string: ${JSON.stringify(v)}`, name);
  return v;
}

export function requiredStr(params: Params, key: string, name = key): string {
  const v = str(params, key, name);
  if (v === undefined || v === '') throw paramMissing(name);
  return v;
}

/** A nullable string: Stripe clears a field sent as the empty string. */
export function nullableStr(params: Params, key: string): string | null | undefined {
  const v = str(params, key);
  return v === undefined ? undefined : v === '' ? null : v;
}

export function int(params: Params, key: string, name = key): number | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  throw new StripeApiError(400, 'invalid_request_error', `Invalid integer: ${String(v)}`, {
    code: 'parameter_invalid_integer',
    param: name,
  });
}

export function bool(params: Params, key: string): boolean | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new StripeApiError(400, 'invalid_request_error', `Invalid boolean: ${String(v)}`, {
    code: 'parameter_invalid_boolean',
    param: key,
  });
}

/** `trial_end`-style: a timestamp or the word `now`. */
export function timestampOrNow(params: Params, key: string): number | 'now' | undefined {
  const v = params[key];
  if (v === 'now') return 'now';
  return int(params, key);
}

export function obj(params: Params, key: string): Params | undefined {
  const v = params[key];
  if (v === undefined || v === '') return undefined;
  if (!isRecord(v)) throw invalidRequest(`Invalid object`, key);
  return v;
}

/** Arrays arrive as `a[0][b]=` (an object keyed by index) or `a[]=`. */
export function arr(params: Params, key: string): unknown[] | undefined {
  const v = params[key];
  if (v === undefined || v === '') return undefined;
  if (Array.isArray(v)) return v;
  if (isRecord(v) && Object.keys(v).every((k) => /^\d+$/.test(k))) {
    return Object.keys(v)
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => v[k]);
  }
  throw invalidRequest('Invalid array', key);
}

export function metadata(params: Params): Metadata | undefined {
  const v = params.metadata;
  if (v === undefined) return undefined;
  if (v === '') return {};
  if (!isRecord(v)) throw invalidRequest('Invalid hash', 'metadata');
  const out: Metadata = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') throw invalidRequest('Invalid hash', `metadata[${k}]`);
    out[k] = value;
  }
  return out;
}

export function expandList(params: Params): string[] {
  const v = params.expand;
  if (v === undefined) return [];
  const list = arr(params, 'expand') ?? [];
  return list.filter((x): x is string => typeof x === 'string');
}
