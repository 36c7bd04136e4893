/**
 * Data retention (Account → Data retention, admins): conversations older than `retentionDays` are deleted with
 * their messages, files and report facts by a daily job. Off (null) by default. The rule is shared by the API and
 * the console's form.
 */
import { z } from 'zod';

export const RETENTION_DAYS = { min: 30, max: 3650 } as const;

export const RETENTION_MESSAGES = {
  range: `Keep conversations for ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max} days`,
  saved: 'Data retention saved.',
} as const;

export const RetentionDaysSchema = z
  .number({ error: RETENTION_MESSAGES.range })
  .int(RETENTION_MESSAGES.range)
  .min(RETENTION_DAYS.min, RETENTION_MESSAGES.range)
  .max(RETENTION_DAYS.max, RETENTION_MESSAGES.range)
  .nullable();

/** PUT /v1/accounts/{id}/retention */
export const RetentionSchema = z.object({ retentionDays: RetentionDaysSchema }).strict();
export type RetentionPayload = z.infer<typeof RetentionSchema>;

/** The first day whose conversations are still kept, for a retention of `days` (null: everything is kept). */
export function retentionCutoff(days: number | null, now: Date = new Date()): Date | null {
  return days === null ? null : new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
}
