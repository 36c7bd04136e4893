/** Account calls under /v1/accounts. Billing proper (checkout, portal, invoices) comes with the billing issue. */
import { Router } from 'express';
import type { ApiDeps } from '../users/routes';
import { requireAuth, authOf } from '../../http/auth';
import { parse } from '../../http/validate';
import { changeTrialPlan } from '../../commands/changePlan';
import { loadCurrentUser } from '../users/currentUser';
import { ownAccount } from '../chat-endpoints/access';
import { UpgradeParamsSchema } from './schema';

export function accountsRouter({ config, models }: ApiDeps): Router {
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);

  router.post('/accounts/:id/upgrade/:planStripeId', auth, async (req, res) => {
    const account = await ownAccount(models, res, String(req.params.id));
    const { planStripeId } = parse(UpgradeParamsSchema, req.params);
    await changeTrialPlan(models, account, planStripeId);
    res.json(await loadCurrentUser(models, authOf(res).user));
  });

  return router;
}
