/**
 * /pricing: the plan catalog (server/shared/plans.ts) as tiles, Monthly and Annually (a CSS-only switch), and
 * the FAQ under the #FAQ anchor the console's FAQs links open.
 */
import { Router } from 'express';
import { escapeHtml } from '../escapeHtml';
import { ARTICLES_PER_WIDGET, articleLimitText, articlesPerWidget } from '../shared/articles';
import { TRIAL_DAYS } from '../shared/constants';
import {
  type CatalogPlan,
  catalogPlan,
  monthlyPrice,
  PLAN_CATALOG,
  TRIAL_FEATURES_STRIPE_ID,
  TRIAL_PLAN_STRIPE_ID,
  yearlyListMonthlyPrice,
} from '../shared/plans';
import { renderPage } from './layout';

const FEATURES: { key: keyof CatalogPlan; label: string }[] = [
  { key: 'savedReplies', label: 'Saved replies' },
  { key: 'reports', label: 'Reports' },
  { key: 'triggers', label: 'Proactive triggers' },
  { key: 'bots', label: 'Bots and integrations' },
  { key: 'questionGroups', label: 'Question groups' },
  { key: 'whiteLabel', label: 'White label' },
  { key: 'phoneSupport', label: 'Phone support' },
];

/** The plan billed at the trial's end unless another is chosen. */
const TRIAL_PLAN = catalogPlan(TRIAL_PLAN_STRIPE_ID) as CatalogPlan;
/** The plan whose features and limits the trial has. */
const TRIAL_FEATURES = catalogPlan(TRIAL_FEATURES_STRIPE_ID) as CatalogPlan;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function tile(plan: CatalogPlan): string {
  const price = monthlyPrice(plan);
  const was = plan.duration === 'yearly' ? yearlyListMonthlyPrice(plan) : null;
  const figure =
    price === null
      ? '<div class="tile__price">Contact us!</div>'
      : `<div class="tile__price">$${price}<small>/month</small>${was !== null && was !== price ? `<span class="tile__was">$${was}</span>` : ''}</div>`;
  const limits = [
    plan.maxOperators === 0 ? 'Unlimited operators' : count(plan.maxOperators, 'operator', 'operators'),
    count(plan.maxChannels, 'channel', 'channels'),
    `${count(plan.convosPerMonth, 'conversation', 'conversations')} per month`,
    `Help center: ${articleLimitText(articlesPerWidget(plan.stripeId)).replace(/^U/, 'u')}`,
  ];
  const features = FEATURES.map((f) => `<li${plan[f.key] ? '' : ' class="off"'}>${f.label}</li>`);
  // Every self-serve plan starts with the same trial, which has all of the top plan; the plan billed is chosen with the card.
  const action =
    price === null
      ? '<a class="btn btn--secondary" href="mailto:sales@parley.chat">Contact sales</a>'
      : `<p class="tile__note">The ${TRIAL_DAYS}-day trial has every ${escapeHtml(TRIAL_FEATURES.label)} feature. Choose ${escapeHtml(plan.label)} when you add a card: nothing is charged before the trial ends.</p>
<a class="btn btn--primary" href="/app/#/signup">Start ${TRIAL_DAYS}-day free trial</a>`;
  return `<article class="tile${plan.tier === 'pro' ? ' tile--featured' : ''}">
<h2>${escapeHtml(plan.label)}</h2>${figure}
<ul>${limits.map((l) => `<li>${l}</li>`).join('')}${features.join('')}</ul>
${action}
</article>`;
}

const FAQ: [string, string][] = [
  [
    'How does the free trial work?',
    `Every plan starts with a ${TRIAL_DAYS}-day free trial with every feature and limit of the ${TRIAL_FEATURES.label} plan (reports, triggers, saved replies, bots and question groups included), no credit card needed. Add a card and choose your plan on the Account page whenever you are ready: the card is saved, and the first charge comes when the trial ends. Then the plan you chose applies (${TRIAL_PLAN.label} if you did not choose one): the console says what it switched off, and keeps those settings for when you upgrade. Without a card the widget stops at the end of the trial. You get a reminder by e-mail three days before.`,
  ],
  [
    'What is the help center?',
    `Each widget has a help center: articles your visitors find before they ask, on its public pages and in the widget. Every plan has one; Basic holds ${ARTICLES_PER_WIDGET.basic} articles per widget, Pro ${ARTICLES_PER_WIDGET.pro}, Business and Custom as many as you write. Import yours from a CSV file or a Zendesk Help Center export.`,
  ],
  [
    'What counts as a conversation?',
    'A conversation starts when a visitor sends the first message and ends when the visitor or an operator ends it, or after the inactivity time you set. Offline messages do not count.',
  ],
  [
    'What is a channel?',
    'Each widget is linked to one Slack channel. Put one widget on several sites, or one widget per site or team, up to your plan’s channels.',
  ],
  ['Who counts as an operator?', 'Anyone who answers visitors in the linked Slack channels. Business and Custom plans have no limit.'],
  [
    'Can I switch plans or pay yearly?',
    'Yes, from the Account page at any time. Annual plans cost 11 months: one month is free. A switch takes effect at once and the price is prorated.',
  ],
  ['Can I cancel?', 'Yes, from the Account page. Your plan runs until the end of the paid period, then stops; nothing more is charged.'],
  [
    'Where is my data, and can I export or delete it?',
    'Admins export everything Parley holds for the account as JSON files from the Account page, and erase a visitor on request. Messages also live in your Slack threads, which Slack holds.',
  ],
  [
    'Is there an API?',
    'Yes: a REST API with your API key to read conversations, messages and visitors, REST hooks for Zapier, and webhooks per widget. See the <a href="/docs/rest-api">API documentation</a>.',
  ],
  [
    'Can I run Parley myself?',
    'Yes: Parley runs with MongoDB, optional Redis and a Slack app made from the manifest. See <a href="/docs/self-hosting">Self-hosting</a>.',
  ],
];

export function pricingPage(): string {
  const tiles = (duration: 'monthly' | 'yearly') =>
    `<div class="tiles tiles--${duration}">${PLAN_CATALOG.filter((p) => p.duration === duration)
      .sort((a, b) => a.rank - b.rank)
      .map(tile)
      .join('')}</div>`;
  const main = `<section class="pricing-head"><h1>Simple pricing, answered from Slack</h1><p>Start with a ${TRIAL_DAYS}-day free trial of every ${escapeHtml(TRIAL_FEATURES.label)} feature. No credit card needed.</p></section>
<section class="plans" aria-label="Plans">
<input type="radio" name="duration" id="d-monthly" checked><input type="radio" name="duration" id="d-yearly">
<div class="duration" role="group" aria-label="Billing period"><label for="d-monthly">Monthly</label><label for="d-yearly">Annually (1 month free)</label></div>
${tiles('monthly')}${tiles('yearly')}
</section>
<section class="faq" id="FAQ" aria-labelledby="faq-title"><h2 id="faq-title">Frequently asked questions</h2>
${FAQ.map(([q, a]) => `<details><summary>${escapeHtml(q)}</summary><p>${a}</p></details>`).join('\n')}
</section>`;
  return renderPage({ title: 'Pricing', section: 'pricing', main });
}

export function pricingRouter(): Router {
  const router = Router();
  const html = pricingPage();
  router.get(['/pricing', '/pricing/'], (_req, res) => {
    res.type('html').send(html);
  });
  return router;
}
