import { z } from 'zod';

/** POST /accounts/{id}/upgrade/{planStripeId}: the account id is checked by the access helper. */
export const UpgradeParamsSchema = z.object({
  id: z.string(),
  planStripeId: z.string().regex(/^[a-z0-9_]{1,64}$/, 'Unknown plan'),
});
