/**
 * The zod rule of a setting that names one of a widget's tags (a question group's, an article's): '' for none, else
 * one tag as the widget's list keeps it (shared/tags.ts). Whether the widget lists it is the server's to check.
 */
import { z } from 'zod';
import { normalizeTag, TAG_MAX_CHARS, tagProblem } from './tags';

export const optionalTagSchema = z
  .string({ error: 'tag: One tag, or empty for none.' })
  .max(TAG_MAX_CHARS + 10, `tag: At most ${TAG_MAX_CHARS} characters.`)
  .transform(normalizeTag)
  .refine((t) => t === '' || tagProblem(t) === null, { error: (issue) => `tag: ${tagProblem(String(issue.input))}` })
  .default('');
