/** Schemas of the admin-only account calls (API keys, GDPR export and erasure); see adminRoutes.ts. */
export { GenerateApiKeySchema, GdprErasureSchema } from '../../shared/team';
