/**
 * Input checked against a zod schema, or a ValidationError (400) saying what is wrong: the one way input is parsed,
 * by the validate() middleware for routes and by commands that take settings from several transports.
 */
import type { z } from 'zod';
import { ValidationError } from './errors';
import { MESSAGES } from './shared/auth';

const OWN_MESSAGES = new Set<string>(Object.values(MESSAGES));
/** zod's built-in wording, which does not say which field it is about. */
const GENERIC_MESSAGE = /^(Invalid|Too (big|small))/;

/** The message shown to the user: the first problem, with its field name when it has one. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  if (issue.code === 'unrecognized_keys') return `Unexpected field: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.path.length === 0) return 'The request body must be a JSON object';
  if (issue.path.length > 0 && GENERIC_MESSAGE.test(issue.message) && !OWN_MESSAGES.has(issue.message)) {
    return `${issue.path.join('.')}: ${issue.message}`;
  }
  return issue.message;
}

/** Parses a value with a schema, or throws a ValidationError (400) describing the first problem. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(describeIssues(result.error));
  return result.data;
}
