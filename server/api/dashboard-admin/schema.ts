import { z } from 'zod';

export { AcceptInvitationSchema, DeleteUserSchema, InviteUserSchema, ToggleAdminSchema } from '../../shared/team';

/** GET /p/invitations/{token} */
export const InvitationParamsSchema = z.object({ token: z.string().max(200) });
