/** Recent Invoices and the next charge (the next one is not asked for while on trial without a card). */
import { useEffect, useState } from 'react';
import type { InvoiceView, NextInvoiceView } from '../../../../server/shared';
import { getNextInvoice, listInvoices } from '../../api/account';
import { formatCents } from '../../lib/billingTexts';
import { useUser } from '../../session/session';
import { formatDate, hasCard, visibleInvoices } from './accountRules';

export function InvoicesSection() {
  const { account } = useUser();
  const [invoices, setInvoices] = useState<InvoiceView[] | null>(null);
  const [next, setNext] = useState<NextInvoiceView>(null);
  const [failed, setFailed] = useState(false);
  const withCard = hasCard(account);

  // The calls take nothing from the plan, yet a change of plan makes Stripe invoice it and moves the next charge:
  // the plan says when to load both again.
  // biome-ignore lint/correctness/useExhaustiveDependencies(account.plan.stripeId): the reload trigger explained above
  useEffect(() => {
    let live = true;
    listInvoices(account.Id)
      .then((list) => live && setInvoices(list))
      .catch(() => live && setFailed(true));
    if (withCard) {
      getNextInvoice(account.Id)
        .then((upcoming) => live && setNext(upcoming))
        .catch(() => live && setNext(null));
    }
    return () => {
      live = false;
    };
  }, [account.Id, account.plan.stripeId, withCard]);

  const shown = visibleInvoices(invoices ?? []);
  return (
    <section className="card account-section" aria-labelledby="invoices-title">
      <h2 id="invoices-title">Recent Invoices</h2>
      {next && (
        <p className="next-invoice">
          Next invoice: <strong>{formatCents(next.amount)}</strong> on {formatDate(next.dateTs * 1000)}
        </p>
      )}
      {failed ? (
        <p className="muted">Invoices could not be loaded right now.</p>
      ) : invoices === null ? (
        <p className="muted">Loading invoices…</p>
      ) : shown.length === 0 ? (
        <p className="muted">No invoices yet.</p>
      ) : (
        <table className="invoices">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Description</th>
              <th scope="col" className="invoices__amount">
                Amount
              </th>
              <th scope="col">
                <span className="sr-only">Invoice</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((invoice) => (
              <tr key={invoice.id}>
                <td>{formatDate(invoice.dateTs * 1000)}</td>
                <td>{describe(invoice, account.availablePlans)}</td>
                <td className="invoices__amount">{formatCents(invoice.amount)}</td>
                <td>
                  {invoice.stripeInvoiceUrl && (
                    <a href={invoice.stripeInvoiceUrl} target="_blank" rel="noreferrer">
                      View
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function describe(invoice: InvoiceView, plans: readonly { stripeId: string; label: string; duration: string }[]): string {
  if (invoice.stripePlanId === '') return 'Single charge';
  const plan = plans.find((p) => p.stripeId === invoice.stripePlanId);
  if (!plan) return 'Subscription';
  // Stripe invoices the start of a trial at 0.
  return invoice.amount === 0 ? `${plan.label} plan, free trial` : `${plan.label} plan, ${plan.duration}`;
}
