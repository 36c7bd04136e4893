import { z } from 'zod';

export { InviteUserSchema, ToggleAdminSchema, DeleteUserSchema, AcceptInvitationSchema } from '../../shared/team';

/** GET /p/invitations/{token} */
export const InvitationParamsSchema = z.object({ token: z.string().max(200) });
