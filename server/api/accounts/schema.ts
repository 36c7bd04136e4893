import { z } from 'zod';

/** The account id is checked by the access helper; the plan must be in the catalog (checked by billing). */
export const UpgradeParamsSchema = z.object({
  id: z.string(),
  planStripeId: z.string().regex(/^[a-z0-9_]{1,64}$/, 'Unknown plan'),
});

/** POST /accounts/{id}/create_checkout_session */
export const CheckoutSchema = z.object({ plan: z.string().regex(/^[a-z0-9_]{1,64}$/, 'Unknown plan') }).strict();

/** POST /accounts/{id}/create_portal_session: why the portal opens, and the user asking (their own Id). */
export const PortalSchema = z
  .object({
    type: z.enum(['home', 'subscription_cancel'], { message: "type must be 'home' or 'subscription_cancel'" }),
    uID: z.string().regex(/^[0-9a-f]{24}$/i, 'uID must be your user Id'),
  })
  .strict();

const field = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

/** PUT /accounts/{id}: the Account Info form. */
export const AccountInfoSchema = z
  .object({
    orgName: field(200),
    email: z.union([z.literal(''), z.string().trim().toLowerCase().email('Invoice e-mail is invalid').max(254)]),
    billingAddressLine1: field(200),
    billingCity: field(100),
    billingState: field(100),
    billingPostalCode: field(20),
    billingCountry: z.union([
      z.literal(''),
      z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, 'Country must be a 2-letter code such as US or DE')
        .toUpperCase(),
    ]),
    taxID: field(40),
  })
  .strict();
export type AccountInfo = z.infer<typeof AccountInfoSchema>;
