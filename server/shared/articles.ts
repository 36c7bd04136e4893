/**
 * Help-center articles (issue: instant answers), the rules shared by the API, the console and the public pages:
 * a title, a Markdown body, one of the widget's languages, a slug unique per widget and language, published or
 * draft.
 */
import { z } from 'zod';
import { PLAN_CATALOG } from './plans';
import { optionalTagSchema } from './tagSchema';
import { WIDGET_LOCALES } from './widget-texts';

export const ARTICLE_LIMITS = { titleChars: 200, bodyChars: 50_000, slugChars: 120, queryChars: 500 } as const;

/** How many articles a widget's help center may hold, by plan tier (0: unlimited). Shown on the pricing page. */
export const ARTICLES_PER_WIDGET: Record<string, number> = { basic: 25, pro: 250, business: 0, custom: 0 };

/** A slug as the public pages use it: lower-case ASCII letters, digits and dashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const ArticleInputSchema = z.object({
  title: z
    .string({ error: 'title: Required.' })
    .trim()
    .min(1, 'title: Required.')
    .max(ARTICLE_LIMITS.titleChars, `title: At most ${ARTICLE_LIMITS.titleChars} characters.`),
  body: z
    .string({ error: 'body: Required.' })
    .max(ARTICLE_LIMITS.bodyChars, `body: At most ${ARTICLE_LIMITS.bodyChars} characters.`)
    .default(''),
  language: z.enum(WIDGET_LOCALES, { error: `language: One of ${WIDGET_LOCALES.join(', ')}.` }).default('en'),
  published: z.boolean({ error: 'published: Must be true or false.' }).default(false),
  /** Made from the title when absent. */
  slug: z
    .string()
    .trim()
    .max(ARTICLE_LIMITS.slugChars, `slug: At most ${ARTICLE_LIMITS.slugChars} characters.`)
    .regex(SLUG_PATTERN, 'slug: Lower-case letters, digits and dashes only.')
    .optional(),
  /** A tag of the widget's list a conversation gets when this article answers it; '' (the default) for none. */
  tag: optionalTagSchema,
});
export type ArticleInput = z.infer<typeof ArticleInputSchema>;

/** An article as the API answers it. */
export type ArticleView = {
  Id: string;
  id: string;
  chatEndpointId: string;
  title: string;
  body: string;
  language: string;
  slug: string;
  published: boolean;
  /** The tag a conversation gets when this article answers it; '' for none. */
  tag: string;
  updatedAt: string;
  createdAt: string;
};

export const SYNONYM_LIMITS = { groups: 200, groupChars: 300 } as const;

/** The owner's synonym groups: one line of comma-separated words or phrases each ("pw, password, passcode"). */
export const AnswerSynonymsInputSchema = z.object({
  groups: z
    .array(z.string().trim().max(SYNONYM_LIMITS.groupChars, `groups: A line has at most ${SYNONYM_LIMITS.groupChars} characters.`), {
      error: 'groups: A list of lines.',
    })
    .max(SYNONYM_LIMITS.groups, `groups: At most ${SYNONYM_LIMITS.groups} lines.`)
    .transform((groups) => groups.filter((g) => g.length > 0)),
});
export type AnswerSynonymsInput = z.infer<typeof AnswerSynonymsInputSchema>;

/** A search hit as the widget's search answers it (`snippet` is HTML with the matched words in <mark>). */
export type ArticleHit = { id: string; title: string; snippet: string; url: string; score: number };

/**
 * A slug from a title: accents dropped, anything else than ASCII letters and digits a dash. A title with none of
 * those (Japanese, Arabic…) gets `article`; callers make it unique with a suffix.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || 'article';
}

/** How many articles a plan's widget may hold (0: unlimited); a plan outside the catalog is not limited. */
export function articlesPerWidget(stripeId: string): number {
  const tier = PLAN_CATALOG.find((plan) => plan.stripeId === stripeId)?.tier;
  return tier === undefined ? 0 : (ARTICLES_PER_WIDGET[tier] ?? 0);
}

/** The limit in words, as the pricing page and the console show it ("25 articles per widget", "Unlimited articles"). */
export function articleLimitText(limit: number): string {
  return limit === 0 ? 'Unlimited articles' : `${limit} articles per widget`;
}

/**
 * Why one more article is refused, with the first self-serve plan that lifts the limit:
 * "Your Basic plan allows 25 articles per widget. Upgrade to Pro for 250."
 */
export function articleLimitMessage(plan: { label: string; stripeId: string }): string {
  const limit = articlesPerWidget(plan.stripeId);
  const current = PLAN_CATALOG.find((p) => p.stripeId === plan.stripeId);
  const lifting = PLAN_CATALOG.find(
    (p) =>
      p.duration === 'monthly' &&
      p.price !== null &&
      (current === undefined || p.rank > current.rank) &&
      articlesPerWidget(p.stripeId) !== limit,
  );
  const more = lifting ? articlesPerWidget(lifting.stripeId) : 0;
  const upgrade = lifting ? ` Upgrade to ${lifting.label} for ${more === 0 ? 'unlimited articles' : more}.` : ' Upgrade to add more.';
  return `Your ${plan.label} plan allows ${limit} articles per widget.${upgrade}`;
}
