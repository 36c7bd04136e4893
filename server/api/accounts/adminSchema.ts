/** Schemas of the admin-only account calls (API keys, GDPR export and erasure); see adminRoutes.ts. */
import { z } from 'zod';

export { GdprErasureSchema, GenerateApiKeySchema } from '../../shared/team';

/** GET /p/gdpr-exports/{id}?expires=…&signature=… (checked by verifyExportLink). */
export const ExportDownloadParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/i, 'This export link is invalid'),
});
export const ExportDownloadQuerySchema = z.object({
  expires: z.string('This export link is invalid').max(20),
  signature: z.string('This export link is invalid').max(128),
});
