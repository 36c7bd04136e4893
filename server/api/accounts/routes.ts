/** Account and billing calls under /v1/accounts/{id}: plans, Checkout, the payment portal, invoices, usage, Account Info. */
import { type Response, Router } from 'express';
import { refreshQuota } from '../../billing';
import { setRetention } from '../../commands/retention';
import { AuthorizationError, ValidationError } from '../../errors';
import { authOf, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import { RetentionSchema } from '../../shared/retention';
import type { InvoiceView, NextInvoiceView } from '../../shared/types';
import { ownAccount } from '../chat-endpoints/access';
import { loadCurrentUser } from '../users/currentUser';
import type { ApiDeps } from '../users/routes';
import { AccountInfoSchema, CheckoutSchema, PortalSchema, UpgradeParamsSchema } from './schema';

export const ADMINS_ONLY = 'Only an admin of your account can do this';

/** Billing, read or changed, is for admins; others get 403 (the console shows them no Account screen). */
function requireAdmin(res: Response): void {
  if (!authOf(res).user.admin) throw new AuthorizationError(ADMINS_ONLY, 'admin_only');
}

export function accountsRouter({ config, models, billing }: ApiDeps): Router {
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);
  const account = (res: Response, id: unknown) => ownAccount(models, res, String(id));

  router.put('/accounts/:id', auth, validate(AccountInfoSchema), async (req: Validated<typeof AccountInfoSchema>, res) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    await billing.updateInfo(owned, authOf(res).user.email, req.body);
    res.json(await loadCurrentUser(models, authOf(res).user));
  });

  router.put('/accounts/:id/retention', auth, validate(RetentionSchema), async (req: Validated<typeof RetentionSchema>, res) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    await setRetention(models, owned._id, req.body);
    res.json(await loadCurrentUser(models, authOf(res).user));
  });

  const upgrade = { params: UpgradeParamsSchema };
  router.post('/accounts/:id/upgrade/:planStripeId', auth, validate(upgrade), async (req: Validated<typeof upgrade>, res) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    await billing.changePlan(owned, req.params.planStripeId);
    await refreshQuota(models, owned._id);
    res.json(await loadCurrentUser(models, authOf(res).user));
  });

  router.post(
    '/accounts/:id/create_checkout_session',
    auth,
    validate(CheckoutSchema),
    async (req: Validated<typeof CheckoutSchema>, res) => {
      const owned = await account(res, req.params.id);
      requireAdmin(res);
      res.json({ url: await billing.checkoutUrl(owned, authOf(res).user.email, req.body.plan) });
    },
  );

  router.post('/accounts/:id/create_portal_session', auth, validate(PortalSchema), async (req: Validated<typeof PortalSchema>, res) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    const { type, uID } = req.body;
    const { user } = authOf(res);
    if (uID.toLowerCase() !== user.id) throw new ValidationError('uID must be your user Id', 'bad_user');
    res.json({ url: await billing.portalUrl(owned, user.email, type) });
  });

  // Reading billing (invoices, the next charge, usage) is for admins too: the Account screen is theirs alone.
  router.get('/accounts/:id/invoices', auth, async (req, res: Response<InvoiceView[]>) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    res.json(await billing.listInvoices(owned));
  });

  router.get('/accounts/:id/next-invoice', auth, async (req, res: Response<NextInvoiceView>) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    res.json(await billing.nextInvoice(owned));
  });

  router.get('/accounts/:id/conversation-count', auth, async (req, res: Response<number>) => {
    const owned = await account(res, req.params.id);
    requireAdmin(res);
    res.json(await refreshQuota(models, owned._id));
  });

  return router;
}
