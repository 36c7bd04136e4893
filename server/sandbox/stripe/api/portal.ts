/**
 * Customer portal sessions, with the subscription_cancel and payment_method_update flows.
 */
import type { Ctx } from '../billing';
import { invalidRequest } from '../errors';
import { obj, requiredStr, str } from '../params';
import { randomId } from '../state';
import type { PortalSession } from '../types';
import { type Route, routeTable } from './routes';

export function portalRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
  on('POST', '/v1/billing_portal/sessions', ['customer', 'return_url', 'flow_data', 'configuration', 'locale', 'on_behalf_of'], (p) => {
    const customer = state.customer(requiredStr(p, 'customer'));
    const id = randomId('bps', 24);
    const flowData = obj(p, 'flow_data');
    let flow: PortalSession['flow'] = null;
    if (flowData) {
      const type = requiredStr(flowData, 'type', 'flow_data[type]');
      if (type !== 'subscription_cancel' && type !== 'payment_method_update')
        throw invalidRequest('The sandbox supports the flows subscription_cancel and payment_method_update.', 'flow_data[type]');
      let cancel: { retention: null; subscription: string } | null = null;
      if (type === 'subscription_cancel') {
        const subId = requiredStr(
          obj(flowData, 'subscription_cancel') ?? {},
          'subscription',
          'flow_data[subscription_cancel][subscription]',
        );
        const sub = state.subscription(subId, 'flow_data[subscription_cancel][subscription]');
        if (sub.customer !== customer.id)
          throw invalidRequest(
            `The subscription ${subId} does not belong to the customer ${customer.id}.`,
            'flow_data[subscription_cancel][subscription]',
          );
        if (sub.status === 'canceled' || sub.cancel_at_period_end)
          throw invalidRequest(
            `The subscription ${subId} has already been canceled or is set to cancel at period end.`,
            'flow_data[subscription_cancel][subscription]',
          );
        cancel = { retention: null, subscription: subId };
      }
      const after = obj(flowData, 'after_completion') ?? {};
      const afterType = str(after, 'type') ?? 'portal_homepage';
      if (afterType !== 'redirect' && afterType !== 'portal_homepage' && afterType !== 'hosted_confirmation')
        throw invalidRequest('Invalid flow_data[after_completion][type]', 'flow_data[after_completion][type]');
      const redirect =
        afterType === 'redirect'
          ? { return_url: requiredStr(obj(after, 'redirect') ?? {}, 'return_url', 'flow_data[after_completion][redirect][return_url]') }
          : null;
      flow = {
        type,
        after_completion: { type: afterType, redirect, hosted_confirmation: null },
        subscription_cancel: cancel,
        subscription_update: null,
        subscription_update_confirm: null,
      };
    }
    const session: PortalSession = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_sandbox_default',
      created: state.now(),
      customer: customer.id,
      flow,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: str(p, 'return_url') ?? null,
      url: `${ctx.baseUrl}/portal/${id}`,
    };
    state.data.portalSessions.push(session);
    state.changed();
    return session;
  });
  return routes;
}
