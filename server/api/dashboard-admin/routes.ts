/**
 * Team users (admins only) under /v1/dashboard-admin/users, and the invitee's public calls under
 * /v1/p/invitations: reading an invitation and accepting it with a password and the terms.
 */
import { type Response, Router } from 'express';
import { createSession } from '../../commands/sessions';
import { acceptInvitation, deleteUser, findInvitation, inviteUser, listUsers, toggleAdmin } from '../../commands/teamUsers';
import { authOf, requireAdmin, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import type { TokenResponse } from '../../shared/auth';
import type { DashboardUserRow, InvitationView } from '../../shared/team';
import { findOwned } from '../ownership';
import { presentDashboardUser } from '../presenters/dashboardUser';
import type { ApiDeps } from '../users/routes';
import { AcceptInvitationSchema, DeleteUserSchema, InvitationParamsSchema, InviteUserSchema, ToggleAdminSchema } from './schema';

export function dashboardAdminRouter({ config, models, mailer, limiters }: ApiDeps): Router {
  const router = Router();
  const admin = [requireAuth(models, config.jwtSecret), requireAdmin];
  const limits = config.rateLimits;

  router.get('/dashboard-admin/users', ...admin, async (_req, res: Response<DashboardUserRow[]>) => {
    res.json((await listUsers(models, authOf(res).user.accountId)).map(presentDashboardUser));
  });

  router.post(
    '/dashboard-admin/users',
    ...admin,
    validate(InviteUserSchema),
    async (req: Validated<typeof InviteUserSchema>, res: Response<DashboardUserRow>) => {
      const user = await inviteUser({ models, mailer, publicUrl: config.publicUrl }, authOf(res).user, req.body.email);
      res.status(201).json(presentDashboardUser(user));
    },
  );

  router.put(
    '/dashboard-admin/users',
    ...admin,
    validate(ToggleAdminSchema),
    async (req: Validated<typeof ToggleAdminSchema>, res: Response<DashboardUserRow>) => {
      const actor = authOf(res).user;
      const user = await findOwned(models.User, req.body.id, actor.accountId);
      res.json(presentDashboardUser(await toggleAdmin(models, actor, user)));
    },
  );

  router.delete(
    '/dashboard-admin/users',
    ...admin,
    validate(DeleteUserSchema),
    async (req: Validated<typeof DeleteUserSchema>, res: Response) => {
      const actor = authOf(res).user;
      const user = await findOwned(models.User, req.body.Id, actor.accountId);
      await deleteUser(models, actor, user);
      res.status(204).end();
    },
  );

  const invitationParams = { params: InvitationParamsSchema };
  router.get(
    '/p/invitations/:token',
    validate(invitationParams),
    async (req: Validated<typeof invitationParams>, res: Response<InvitationView>) => {
      const invitation = await findInvitation(models, req.params.token);
      res.json({ email: invitation.email, expiresAt: invitation.expiresAt.toISOString() });
    },
  );

  router.post(
    '/p/invitations/accept',
    ...limiters.perIpAndEmail('invitation', limits.windowMs, limits.resetEmailPerIp, limits.resetEmailPerEmail),
    validate(AcceptInvitationSchema),
    async (req: Validated<typeof AcceptInvitationSchema>, res: Response<TokenResponse>) => {
      const user = await acceptInvitation(models, req.body.token, req.body.password, config.passwordHashing);
      res.json({ token: await createSession(models, config.jwtSecret, user._id) });
    },
  );

  return router;
}
