/** Typed account and billing calls of the console (spec section 7). URLs answered by the server are navigated to. */
import type { AccountInfoPayload, CurrentUser, InvoiceView, NextInvoiceView, PortalReason, SupportView } from '../../../server/shared';
import { apiRequest } from './client';

const account = (id: string) => `/accounts/${encodeURIComponent(id)}`;

function urlOf(answer: { url?: unknown } | null | undefined): string {
  if (typeof answer?.url !== 'string' || answer.url === '') throw new Error('The payment page could not be opened. Please try again.');
  return answer.url;
}

export async function listInvoices(accountId: string): Promise<InvoiceView[]> {
  const list = await apiRequest<InvoiceView[]>('GET', `${account(accountId)}/invoices`);
  return Array.isArray(list) ? list : [];
}

export function getNextInvoice(accountId: string): Promise<NextInvoiceView> {
  return apiRequest<NextInvoiceView>('GET', `${account(accountId)}/next-invoice`);
}

export async function conversationCount(accountId: string): Promise<number> {
  const count = await apiRequest<unknown>('GET', `${account(accountId)}/conversation-count`);
  return typeof count === 'number' ? count : 0;
}

/** The hosted Checkout page that subscribes the account to `planStripeId` with a new card. */
export async function checkoutUrl(accountId: string, planStripeId: string): Promise<string> {
  return urlOf(await apiRequest('POST', `${account(accountId)}/create_checkout_session`, { body: { plan: planStripeId } }));
}

/** The hosted payment portal, opened on its home page or on cancelling the subscription. */
export async function portalUrl(accountId: string, type: PortalReason, uID: string): Promise<string> {
  return urlOf(await apiRequest('POST', `${account(accountId)}/create_portal_session`, { body: { type, uID } }));
}

/** Saves the Account Info form; answers the current user. */
export function updateAccountInfo(accountId: string, info: AccountInfoPayload): Promise<CurrentUser> {
  return apiRequest('PUT', account(accountId), { body: info });
}

/** Saves the data retention period (null: keep everything); answers the current user. */
export function updateRetention(accountId: string, retentionDays: number | null): Promise<CurrentUser> {
  return apiRequest('PUT', `${account(accountId)}/retention`, { body: { retentionDays } });
}

/** Parley's own chat widget for the Support page and the phone line of plans with phone support. */
export async function getSupport(): Promise<SupportView> {
  const answer = await apiRequest<Partial<SupportView> | null>('GET', '/support');
  return {
    widgetId: typeof answer?.widgetId === 'string' && answer.widgetId !== '' ? answer.widgetId : null,
    userHash: typeof answer?.userHash === 'string' && /^[0-9a-f]{64}$/.test(answer.userHash) ? answer.userHash : null,
    phone: typeof answer?.phone === 'string' && answer.phone !== '' ? answer.phone : null,
  };
}
