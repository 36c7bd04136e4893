/**
 * GET /v1/support: what the console's Support page offers the signed-in user besides the docs and the mail link: the
 * chat widget of the team running this deployment (SUPPORT_WIDGET_ID; in development the first widget set up locally)
 * with the user's userHash when that widget has an identity secret, and the support phone number when the account's
 * plan has phone support and SUPPORT_PHONE is set.
 */
import { type Response, Router } from 'express';
import { planHasFeature } from '../../commands/planFeature';
import type { Config } from '../../config';
import { userHashOf } from '../../conversations/identity';
import { authOf, requireAuth } from '../../http/auth';
import type { Models } from '../../models';
import type { SupportView } from '../../shared/types';
import type { ApiDeps } from '../users/routes';

/**
 * The support widget, if this deployment has one (and it exists: a mistyped id shows the mail form): its public id
 * and its identity secret, in one read.
 */
async function supportWidget(models: Models, config: Config): Promise<{ Uuid: string; identitySecret: string } | null> {
  const support = config.support;
  const fields = { Uuid: 1, identitySecret: 1 };
  if (support?.widgetId) return models.ChatEndpoint.findOne({ Uuid: support.widgetId }, fields).lean();
  if (!support?.firstLocalWidget) return null;
  return models.ChatEndpoint.findOne({ Step: 3 }, fields).sort({ createdAt: 1, _id: 1 }).lean();
}

export function supportRouter({ config, models }: ApiDeps): Router {
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);

  router.get('/support', auth, async (_req, res: Response<SupportView>) => {
    const phone = config.support?.phone;
    const { user } = authOf(res);
    const widget = await supportWidget(models, config);
    const secret = widget?.identitySecret;
    res.json({
      widgetId: widget?.Uuid ?? null,
      // Signed here, with the secret that never leaves the server, as a customer's own server signs its users.
      userHash: secret ? userHashOf(secret, String(user._id)) : null,
      phone: phone && (await planHasFeature(models, user.accountId, 'phoneSupport')) ? phone : null,
    });
  });

  return router;
}
