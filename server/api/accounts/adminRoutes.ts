/**
 * Admin-only account calls under /v1/accounts: generating the API and Zapier keys, the GDPR export of the
 * account (in the background, behind a signed link) and the erasure of one visitor.
 */
import { Router, type Request } from 'express';
import type { z } from 'zod';
import type { ApiDeps } from '../users/routes';
import { requireAdmin, requireAuth, authOf } from '../../http/auth';
import { validate } from '../../http/validate';
import { generateApiKey } from '../../commands/apiKeys';
import { loadCurrentUser } from '../users/currentUser';
import { GenerateApiKeySchema } from './adminSchema';

type Body<S extends z.ZodType> = Request<Record<string, string>, unknown, z.output<S>>;

export function accountAdminRouter({ config, models }: ApiDeps): Router {
  const router = Router();
  const admin = [requireAuth(models, config.jwtSecret), requireAdmin];

  // Body { key: 'apiKey' | 'zapierApiKey' } (the API key when empty). The answer carries the new key in full, once.
  router.put('/accounts/generate-api-key', ...admin, validate(GenerateApiKeySchema), async (req: Body<typeof GenerateApiKeySchema>, res) => {
    const { user } = authOf(res);
    const field = req.body.key;
    const key = await generateApiKey(models, user, field === 'apiKey' ? 'api' : 'zapier');
    res.json(await loadCurrentUser(models, user, { field, key }));
  });

  return router;
}
