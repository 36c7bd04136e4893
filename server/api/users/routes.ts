/**
 * Accounts and sign-in: sign-up, login, password reset (public, under /p/), and the signed-in
 * user's own calls under /users/.
 */
import { type Response, Router } from 'express';
import type { SegmentStatus } from '../../analytics/segment';
import type { ArticleSearch } from '../../answers/search';
import type { Billing } from '../../billing';
import type { SavedRepliesWritten } from '../../commands/autoSendReplies';
import { chatStatsFor, computeChatStats } from '../../commands/chatStats';
import { logIn } from '../../commands/logIn';
import { requestPasswordReset, resetPassword } from '../../commands/passwordReset';
import { createSession, revokeSession } from '../../commands/sessions';
import { signUp } from '../../commands/signUp';
import { confirmLegalDocument, recordNpsRating } from '../../commands/userConsents';
import type { Config } from '../../config';
import { authOf, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail';
import type { Models } from '../../models';
import type { RateLimiters } from '../../rateLimits';
import type { OperatorDirectory } from '../../reports/team';
import type { TokenResponse } from '../../shared/auth';
import type { ChatEndpointWithStats, CurrentUser } from '../../shared/types';
import { presentChatEndpointWithStats } from '../presenters/chatEndpoint';
import { loadCurrentUser, type PresenceCheck, refreshPresence } from './currentUser';
import {
  LegalConfirmationParamsSchema,
  LoginSchema,
  PasswordResetEmailSchema,
  PasswordResetSchema,
  RateParamsSchema,
  SignUpSchema,
} from './schema';

export type ApiDeps = {
  config: Config;
  models: Models;
  mailer: Mailer;
  billing: Billing;
  /** Per-client limits on public calls, counted over every process of the deployment. */
  limiters: RateLimiters;
  /** Told of every write of a widget's saved replies (the relay keeps the automatic ones in memory). */
  autoReplies: SavedRepliesWritten;
  /** The relay's presence: widget answers say online or offline as visitors find them. */
  presence: PresenceCheck;
  /** How the API's Slack clients reach Slack (the relay's fetch: each call counted); the global fetch by default. */
  slackFetch?: typeof globalThis.fetch;
  /** For work that outlives its request (GDPR exports). */
  logger: Pick<Logger, 'error'>;
  /** How each widget's Segment deliveries fared in this process (the Integrations tab); none when not given. */
  segment?: { status(writeKey: string): SegmentStatus };
  /** The help center's search, told of every article and synonym write. */
  articleSearch: Pick<ArticleSearch, 'changed'>;
  /** Operators' Slack names and pictures, for Reports → Team (what conversations stored stands in when not given). */
  operators?: OperatorDirectory;
};

export function usersRouter({ config, models, mailer, billing, limiters, presence }: ApiDeps): Router {
  const router = Router();
  const limits = config.rateLimits;
  const auth = requireAuth(models, config.jwtSecret);

  router.post(
    '/p/users',
    ...limiters.perIpAndEmail('signup', limits.windowMs, limits.signUpPerIp, limits.signUpPerEmail),
    validate(SignUpSchema),
    async (req: Validated<typeof SignUpSchema>, res: Response<TokenResponse>) => {
      const user = await signUp(models, req.body, config.passwordHashing);
      res.json({ token: await createSession(models, config.jwtSecret, user._id) });
    },
  );

  router.post(
    '/p/sessions',
    ...limiters.perIpAndEmail('login', limits.windowMs, limits.loginPerIp, limits.loginPerEmail, true),
    validate(LoginSchema),
    async (req: Validated<typeof LoginSchema>, res: Response<TokenResponse>) => {
      const user = await logIn(models, req.body.email, req.body.password, config.passwordHashing);
      res.json({ token: await createSession(models, config.jwtSecret, user._id) });
    },
  );

  router.post(
    '/p/users/password_reset_email',
    ...limiters.perIpAndEmail('reset-email', limits.windowMs, limits.resetEmailPerIp, limits.resetEmailPerEmail),
    validate(PasswordResetEmailSchema),
    async (req: Validated<typeof PasswordResetEmailSchema>, res: Response) => {
      await requestPasswordReset(models, mailer, config.publicUrl, req.body.email);
      res.json({});
    },
  );

  router.post(
    '/p/users/password_reset',
    validate(PasswordResetSchema),
    async (req: Validated<typeof PasswordResetSchema>, res: Response<TokenResponse>) => {
      const user = await resetPassword(models, req.body.token, req.body.password, config.passwordHashing);
      // Every earlier session ended with the reset; this one lets the console sign straight in.
      res.json({ token: await createSession(models, config.jwtSecret, user._id) });
    },
  );

  router.head('/users/logout', auth, async (_req, res) => {
    await revokeSession(models, authOf(res).session.jti);
    res.status(200).end();
  });

  router.get('/users/current', auth, async (_req, res) => {
    const { user } = authOf(res);
    // A new account's trial is set up in Stripe in the background; the console does not wait for it.
    billing.startTrialSoon(user.accountId, user.email);
    await refreshPresence(models, presence, user.accountId);
    res.json(await loadCurrentUser(models, user));
  });

  router.get('/users/current/chat_endpoints', auth, async (_req, res: Response<ChatEndpointWithStats[]>) => {
    await refreshPresence(models, presence, authOf(res).user.accountId);
    const ces = await models.ChatEndpoint.find({ accountId: authOf(res).user.accountId }).sort({ _id: 1 });
    const stats = await chatStatsFor(
      models,
      ces.map((ce) => ce._id),
    );
    res.json(ces.map((ce) => presentChatEndpointWithStats(ce, stats.get(ce._id.toHexString()) ?? computeChatStats([], 0, new Date()))));
  });

  const legalConfirmation = { params: LegalConfirmationParamsSchema };
  router.post(
    '/users/legal_confirmation/:document/:version',
    auth,
    validate(legalConfirmation),
    async (req: Validated<typeof legalConfirmation>, res: Response<CurrentUser>) => {
      const { user } = authOf(res);
      await confirmLegalDocument(user, req.params.document, req.params.version);
      res.json(await loadCurrentUser(models, user));
    },
  );

  const rate = { params: RateParamsSchema };
  router.get('/users/rate/:value', auth, validate(rate), async (req: Validated<typeof rate>, res: Response<CurrentUser>) => {
    const { user } = authOf(res);
    await recordNpsRating(user, Number(req.params.value));
    res.json(await loadCurrentUser(models, user));
  });

  return router;
}
