// The hosted pages a person (or a browser test) uses: Checkout (`/checkout/:id`), the Customer Portal
// (`/portal/:id`), the hosted invoice page (`/invoices/:id`), and the operator page (`/`).
// Plain HTML forms, no script; elements carry ids for browser tests. Each page has its own file; the operator
// page's forms are served here.
import express, { type Router } from 'express';
import { addIntervals, type Ctx } from './billing';
import { registerCheckoutPage } from './checkout-page';
import { advanceClock } from './clock';
import type { StripeSandbox } from './contract';
import { registerInvoicePage } from './invoice-page';
import { operatorPage } from './operator-page';
import { type Body, field } from './page-parts';
import { registerPortalPage } from './portal-page';

export function pagesRouter(ctx: Ctx, sandbox: StripeSandbox): Router {
  const { state } = ctx;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '64kb' });

  registerCheckoutPage(router, ctx, form);
  registerPortalPage(router, ctx, form);
  registerInvoicePage(router, ctx, form);

  // Operator page.
  router.get('/', (_req, res) => {
    res.type('html').send(operatorPage(ctx, sandbox));
  });
  router.post('/operator/advance', form, (req, res) => {
    const body = (req.body ?? {}) as Body;
    const by = field(body, 'by');
    const now = state.now();
    let target = now;
    if (by === 'day') target = now + 86400;
    else if (by === 'month') target = addIntervals(now, 'month', 1);
    else if (by === 'trial') {
      const ends = state.data.subscriptions
        .filter((s) => s.status === 'trialing' && s.trial_end !== null)
        .map((s) => s.trial_end as number);
      target = ends.length > 0 ? Math.min(...ends) : now;
    } else if (/^\d+$/.test(field(body, 'days'))) target = now + Number(field(body, 'days')) * 86400;
    advanceClock(ctx, target);
    res.redirect(303, `${ctx.baseUrl}/`);
  });
  router.post('/operator/resend', form, (req, res) => {
    const eventId = field((req.body ?? {}) as Body, 'event');
    if (state.data.events.some((e) => e.id === eventId)) void sandbox.redeliver(eventId).catch(() => undefined);
    res.redirect(303, `${ctx.baseUrl}/#deliveries`);
  });
  return router;
}
