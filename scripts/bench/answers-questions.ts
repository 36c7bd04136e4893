/**
 * The bench's visitor questions (scripts/bench/answers.ts), written before the search engine and before the
 * articles' texts, the way visitors type them into a chat: typos, no punctuation, slang. Each names the article
 * (slug, language) it should find; `null` for a question the help center does not answer, which should find nothing.
 */
export type BenchQuestion = { q: string; lang: string; expect: string | null };

export const QUESTIONS: BenchQuestion[] = [
  // Password and signing in
  { q: 'i cant log in, forgot my pw', lang: 'en', expect: 'reset-password' },
  { q: 'forgot password', lang: 'en', expect: 'reset-password' },
  { q: 'how do i reset my passwrod', lang: 'en', expect: 'reset-password' },
  { q: 'the reset link never arrived in my inbox', lang: 'en', expect: 'reset-password' },
  { q: 'locked out of my account what do i do', lang: 'en', expect: 'reset-password' },
  { q: 'change my password pls', lang: 'en', expect: 'reset-password' },
  // Two-factor
  { q: 'lost my phone, how do i get into my account with 2fa on', lang: 'en', expect: 'lost-2fa-device' },
  { q: 'new phone authenticator codes gone', lang: 'en', expect: 'lost-2fa-device' },
  { q: 'where do i find my backup codes', lang: 'en', expect: 'lost-2fa-device' },
  { q: 'how to turn on 2fa', lang: 'en', expect: 'two-factor' },
  { q: 'enable two factor authentication', lang: 'en', expect: 'two-factor' },
  { q: 'can i use google authenticator', lang: 'en', expect: 'two-factor' },
  // Account
  { q: 'change email address', lang: 'en', expect: 'change-email' },
  { q: 'i want to use my work email instead of gmail', lang: 'en', expect: 'change-email' },
  { q: 'how do i delete my account', lang: 'en', expect: 'delete-account' },
  { q: 'close account and remove all my data', lang: 'en', expect: 'delete-account' },
  { q: 'gdpr erase my data', lang: 'en', expect: 'delete-account' },
  // Billing
  { q: 'cancel subscription', lang: 'en', expect: 'cancel-subscription' },
  { q: 'how do i stop being charged every month', lang: 'en', expect: 'cancel-subscription' },
  { q: 'unsubscribe from paid plan', lang: 'en', expect: 'cancel-subscription' },
  { q: 'can i get my money back', lang: 'en', expect: 'refunds' },
  { q: 'i was charged twice want a refund', lang: 'en', expect: 'refunds' },
  { q: 'where are my invoices', lang: 'en', expect: 'invoices' },
  { q: 'need a receipt for my accountant with our vat number', lang: 'en', expect: 'invoices' },
  { q: 'my card expired how do i update it', lang: 'en', expect: 'payment-method' },
  { q: 'change credit card', lang: 'en', expect: 'payment-method' },
  { q: 'payment failed', lang: 'en', expect: 'payment-method' },
  { q: 'upgrade to pro', lang: 'en', expect: 'change-plan' },
  { q: 'downgrade plan', lang: 'en', expect: 'change-plan' },
  // Team
  { q: 'how do i add my coworkers', lang: 'en', expect: 'invite-team' },
  { q: 'invite people to my workspace', lang: 'en', expect: 'invite-team' },
  { q: 'remove a user from the team', lang: 'en', expect: 'remove-member' },
  { q: 'someone left the company how do i kick them out', lang: 'en', expect: 'remove-member' },
  // Notifications
  { q: 'stop sending me emails', lang: 'en', expect: 'notifications' },
  { q: 'too many notifications', lang: 'en', expect: 'notifications' },
  // Notes
  { q: 'export notes to pdf', lang: 'en', expect: 'export-notes' },
  { q: 'download all my notes as markdown', lang: 'en', expect: 'export-notes' },
  { q: 'import from evernote', lang: 'en', expect: 'import-notes' },
  { q: 'move my stuff over from onenote', lang: 'en', expect: 'import-notes' },
  { q: 'notes not syncing between my laptop and phone', lang: 'en', expect: 'sync-problems' },
  { q: 'changes dont show up on my other device', lang: 'en', expect: 'sync-problems' },
  { q: 'is there an iphone app', lang: 'en', expect: 'mobile-app' },
  { q: 'android app download', lang: 'en', expect: 'mobile-app' },
  { q: 'dark mode', lang: 'en', expect: 'dark-mode' },
  { q: 'the screen is too bright at night', lang: 'en', expect: 'dark-mode' },
  { q: 'share a note with a client who doesnt have an account', lang: 'en', expect: 'share-note' },
  { q: 'public link to a note', lang: 'en', expect: 'share-note' },
  { q: 'i deleted a note by accident can i get it back', lang: 'en', expect: 'restore-note' },
  { q: 'where is the trash', lang: 'en', expect: 'restore-note' },
  { q: 'max file size for attachments', lang: 'en', expect: 'storage-limits' },
  { q: 'my upload is too big', lang: 'en', expect: 'storage-limits' },
  { q: 'saml sso with okta', lang: 'en', expect: 'single-sign-on' },
  // French
  { q: "j'ai oublié mon mot de passe", lang: 'fr', expect: 'reinitialiser-mot-de-passe' },
  { q: 'je narrive pas a me connecter', lang: 'fr', expect: 'reinitialiser-mot-de-passe' },
  { q: 'comment annuler mon abonnement', lang: 'fr', expect: 'annuler-abonnement' },
  { q: 'resilier abonnement', lang: 'fr', expect: 'annuler-abonnement' },
  { q: 'exporter mes notes en pdf', lang: 'fr', expect: 'exporter-notes' },
  { q: 'ou trouver mes factures', lang: 'fr', expect: 'factures' },
  { q: 'besoin dune facture pour ma compta', lang: 'fr', expect: 'factures' },
  // German
  { q: 'passwort vergessen', lang: 'de', expect: 'passwort-zuruecksetzen' },
  { q: 'ich kann mich nicht anmelden', lang: 'de', expect: 'passwort-zuruecksetzen' },
  { q: 'zwei faktor authentifizierung einrichten', lang: 'de', expect: 'zwei-faktor' },
  { q: 'handy verloren 2fa', lang: 'de', expect: 'zwei-faktor' },
  { q: 'konto löschen', lang: 'de', expect: 'konto-loeschen' },
  { q: 'wie lösche ich meine daten', lang: 'de', expect: 'konto-loeschen' },
  { q: 'notizen werden nicht synchronisiert', lang: 'de', expect: 'synchronisierung' },
  { q: 'änderungen erscheinen nicht auf dem handy', lang: 'de', expect: 'synchronisierung' },
  // Unrelated: the help center does not answer these
  { q: 'do you sell printers', lang: 'en', expect: null },
  { q: 'what is the weather in paris tomorrow', lang: 'en', expect: null },
  { q: 'are you hiring', lang: 'en', expect: null },
  { q: 'can you recommend a good pizza place', lang: 'en', expect: null },
  { q: 'my cat is sick', lang: 'en', expect: null },
  { q: 'whats your office address for a visit', lang: 'en', expect: null },
  { q: 'do you ship to canada', lang: 'en', expect: null },
  { q: 'who won the football game', lang: 'en', expect: null },
  { q: 'vendez-vous des imprimantes', lang: 'fr', expect: null },
  { q: 'wie wird das wetter morgen', lang: 'de', expect: null },
];
