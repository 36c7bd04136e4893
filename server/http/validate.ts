import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { parse } from '../validation';

/** Schemas for the parts of a request a route reads. */
export type RequestSchemas = { body?: z.ZodType; params?: z.ZodType; query?: z.ZodType };

type Part<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

/**
 * The request a handler behind `validate(schemas)` receives: each validated part typed as its schema's output
 * (`Validated<typeof SignUpSchema>` for a body schema alone).
 */
export type Validated<S extends z.ZodType | RequestSchemas> = S extends z.ZodType
  ? Request<Record<string, string>, unknown, z.output<S>>
  : S extends RequestSchemas
    ? Request<Part<S['params'], Record<string, string>>, unknown, Part<S['body'], unknown>, Part<S['query'], unknown>>
    : never;

const isSchema = (value: z.ZodType | RequestSchemas): value is z.ZodType => 'safeParse' in value;

/**
 * Checks a request against schemas before the handler runs, and replaces each part with the parsed value
 * (trimmed, lowercased, numbers ... as the schema says); the first problem answers 400. A schema alone is the
 * JSON body's; `{ body, params, query }` names the parts. A missing or non-JSON body reads as undefined.
 */
export function validate(schemas: z.ZodType | RequestSchemas): RequestHandler {
  const { body, params, query } = isSchema(schemas) ? { body: schemas, params: undefined, query: undefined } : schemas;
  return (req, _res, next) => {
    // Handlers read the parsed params through Validated<…>, typed by the schema; Express's own type is a string map.
    if (params) req.params = parse(params, req.params) as Request['params'];
    // Express 5 reads req.query through a getter: the parsed value is set on the request itself.
    if (query) Object.defineProperty(req, 'query', { value: parse(query, req.query), writable: true, enumerable: true });
    if (body) req.body = parse(body, req.body);
    next();
  };
}

/**
 * `validate(schemas)` and the handler behind it, typed by those schemas, for routes whose earlier middlewares fix
 * Express's query type to strings (a parsed query holds dates and numbers, which Express's overloads refuse).
 * Only the type changes: the values are the ones validate() parsed.
 */
export function validated<S extends RequestSchemas>(
  schemas: S,
  handler: (req: Validated<S>, res: Response) => Promise<void> | void,
): RequestHandler[] {
  return [validate(schemas), (req, res) => handler(req as unknown as Validated<S>, res)];
}
