/**
 * The bench's example help center (scripts/bench/answers.ts): Inkpad, a made-up note-taking app, with the articles a
 * help center of its kind has, in English, French and German. Written as such articles are written, not after the
 * bench's questions.
 */
export type BenchArticle = { slug: string; language: string; title: string; body: string };

export const ARTICLES: BenchArticle[] = [
  {
    slug: 'reset-password',
    language: 'en',
    title: 'Reset a forgotten password',
    body: `If you can't remember your password, open the sign-in page and choose **Forgot password?**. Enter the email address of your Inkpad account and we'll send you a link to choose a new password. The link works for one hour.

## The email doesn't arrive
- Check your spam or junk folder.
- Make sure you typed the address your account uses; if you changed it recently, use the new one.
- Company mail servers sometimes hold messages for a few minutes.

To change a password you still know, go to **Settings → Security → Password**.`,
  },
  {
    slug: 'two-factor',
    language: 'en',
    title: 'Set up two-factor authentication',
    body: `Two-factor authentication (2FA) protects your account with a second step: after your password, you enter a six-digit code from an authenticator app on your phone.

1. Go to **Settings → Security**.
2. Choose **Enable two-factor authentication**.
3. Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy or any TOTP app).
4. Enter the code the app shows, then save your recovery codes somewhere safe.

Workspace admins can require 2FA for every member.`,
  },
  {
    slug: 'lost-2fa-device',
    language: 'en',
    title: 'Signing in without your authenticator device',
    body: `If you lost, replaced or reset the phone that held your authenticator app, you can still get into your account with one of the recovery codes you saved when you turned on two-factor authentication. On the sign-in page, choose **Use a recovery code** and enter one; each code works once.

Once you're in, go to **Settings → Security**, turn two-factor authentication off and on again to link your new device, and save the new recovery codes.

No recovery codes? Write to us from the email address of your account and we'll verify your identity before removing 2FA. This takes up to two business days.`,
  },
  {
    slug: 'change-email',
    language: 'en',
    title: 'Change the email address of your account',
    body: `Go to **Settings → Profile → Email** and enter the new address. We send a confirmation link to it; the change takes effect once you click the link. Until then, sign in with the old address.

Your invoices and notifications go to the new address from then on. If your workspace uses single sign-on, your email is managed by your company's identity provider.`,
  },
  {
    slug: 'delete-account',
    language: 'en',
    title: 'Delete your account',
    body: `Deleting your account removes your notes, notebooks, attachments and personal data permanently, within 30 days as the GDPR requires. It can't be undone, so export your notes first if you want to keep them.

Go to **Settings → Profile → Delete account** and confirm with your password. If you own a workspace with other members, transfer ownership or delete the workspace first.

A paid subscription is cancelled when the account is deleted.`,
  },
  {
    slug: 'cancel-subscription',
    language: 'en',
    title: 'Cancel your subscription',
    body: `You can cancel at any time in **Settings → Billing → Cancel plan**. Your workspace stays on its paid plan until the end of the period you paid for, then moves to the free plan; you won't be billed again. Your notes are kept.

Cancelling doesn't delete your account. To resubscribe, choose a plan again in **Billing**.`,
  },
  {
    slug: 'refunds',
    language: 'en',
    title: 'Refund policy',
    body: `Annual plans can be refunded in full within 14 days of purchase. Monthly plans aren't refunded for the current month, but you can cancel so you aren't billed again.

If you were billed by mistake, for example a duplicate charge, contact us with the invoice number and we'll return the payment to your card within 5–10 business days.`,
  },
  {
    slug: 'invoices',
    language: 'en',
    title: 'Download invoices and receipts',
    body: `Every payment has an invoice. Workspace owners and billing admins find them in **Settings → Billing → Invoices**, each as a PDF to download.

To put your company name, address or VAT ID on future invoices, edit **Billing details**. We can't change invoices that were already issued.`,
  },
  {
    slug: 'payment-method',
    language: 'en',
    title: 'Update your payment method',
    body: `When your credit card expires or a payment is declined, update the card in **Settings → Billing → Payment method**. We retry a failed payment three times over a week; your workspace keeps working meanwhile.

We accept Visa, Mastercard, American Express and, for annual plans, bank transfer.`,
  },
  {
    slug: 'change-plan',
    language: 'en',
    title: 'Upgrade or downgrade your plan',
    body: `Compare plans and switch in **Settings → Billing → Change plan**. An upgrade takes effect at once and you pay the prorated difference for the rest of the period. A downgrade takes effect at the next renewal.

Moving to a smaller plan may hide features such as version history or large attachments; your notes are never deleted.`,
  },
  {
    slug: 'invite-team',
    language: 'en',
    title: 'Invite members to your workspace',
    body: `Workspace admins invite people from **Settings → Members → Invite**. Enter one or more email addresses; each person gets an invitation link valid for seven days. You can also share an invite link that lets anyone with an address at your company's domain join.

Each member is a seat on your subscription.`,
  },
  {
    slug: 'remove-member',
    language: 'en',
    title: 'Remove a member from your workspace',
    body: `Admins remove a member in **Settings → Members**: open the menu next to their name and choose **Remove from workspace**. They lose access at once. Notes they created stay in the workspace, owned by the admin who removed them.

Their seat is freed and your next invoice is adjusted.`,
  },
  {
    slug: 'notifications',
    language: 'en',
    title: 'Choose which notifications you get',
    body: `In **Settings → Notifications** you decide what we email you about: mentions, comments on your notes, reminders and the weekly digest. Turn any of them off, or pause all notifications for a while.

Product news can be unsubscribed from with the link at the bottom of each newsletter.`,
  },
  {
    slug: 'export-notes',
    language: 'en',
    title: 'Export your notes',
    body: `You can export a single note or a whole notebook. Open the note or notebook menu and choose **Export**, then pick a format: PDF, Markdown, HTML or Word (.docx). A whole account export, a ZIP of every notebook in Markdown with the attachments, is in **Settings → Data → Export everything**.`,
  },
  {
    slug: 'import-notes',
    language: 'en',
    title: 'Import notes from Evernote, OneNote and other apps',
    body: `Inkpad imports from Evernote (.enex files), Microsoft OneNote, Notion, Apple Notes and plain Markdown or text files. Go to **Settings → Data → Import**, choose the app you're coming from and follow the steps. Tags become labels and attachments are kept.

Large imports run in the background; we email you when they're done.`,
  },
  {
    slug: 'sync-problems',
    language: 'en',
    title: "Notes don't sync between devices",
    body: `Inkpad syncs your notes across your computer, phone and the web within seconds. If an edit doesn't appear on another device:

1. Check that both devices are online and signed in to the same account.
2. Update the app to the latest version.
3. Pull down on the note list (mobile) or choose **Sync now** in the menu (desktop).

Notes edited offline are synchronised when the device reconnects. If two devices changed the same note, both versions are kept.`,
  },
  {
    slug: 'mobile-app',
    language: 'en',
    title: 'Inkpad on iOS and Android',
    body: `Get Inkpad for iPhone and iPad from the App Store and for Android from Google Play. Sign in with the same account and your notes appear on your phone; notes you open are available offline.`,
  },
  {
    slug: 'dark-mode',
    language: 'en',
    title: 'Use the dark theme',
    body: `Inkpad has a light and a dark theme. Choose one in **Settings → Appearance → Theme**, or pick **System** to follow your device's setting, switching automatically in the evening.`,
  },
  {
    slug: 'share-note',
    language: 'en',
    title: 'Share a note with people outside your workspace',
    body: `Open the note and choose **Share → Publish to web** to get a public link anyone can view without an account. You can turn the link off again at any time, protect it with a password or let it expire.

To let someone edit, invite them as a guest by email instead.`,
  },
  {
    slug: 'restore-note',
    language: 'en',
    title: 'Recover deleted notes from the trash',
    body: `Deleted notes go to the **Trash** in the sidebar and stay there for 30 days. Open the trash, select the note and choose **Restore**; it returns to its notebook.

After 30 days notes are removed for good. On paid plans, version history also lets you go back to an earlier version of a note.`,
  },
  {
    slug: 'storage-limits',
    language: 'en',
    title: 'Attachment and storage limits',
    body: `Each attachment can be up to 25 MB on the free plan and 200 MB on paid plans. The free plan includes 1 GB of storage, Pro 50 GB per member. See your usage in **Settings → Data → Storage**.

If a file is larger than the limit, compress it or link to it instead.`,
  },
  {
    slug: 'single-sign-on',
    language: 'en',
    title: 'Single sign-on (SAML)',
    body: `Business workspaces can sign in through their identity provider with SAML 2.0: Okta, Azure AD (Entra ID), Google Workspace or OneLogin. An admin sets it up in **Settings → Security → Single sign-on** with the provider's metadata URL. Members then sign in with their company account, and new members can be provisioned automatically with SCIM.`,
  },
  // French
  {
    slug: 'reinitialiser-mot-de-passe',
    language: 'fr',
    title: 'Réinitialiser un mot de passe oublié',
    body: `Si vous ne vous souvenez plus de votre mot de passe, ouvrez la page de connexion et choisissez **Mot de passe oublié ?**. Saisissez l'adresse e-mail de votre compte : nous vous envoyons un lien pour choisir un nouveau mot de passe, valable une heure.

Vous ne recevez rien ? Vérifiez vos courriers indésirables.`,
  },
  {
    slug: 'annuler-abonnement',
    language: 'fr',
    title: 'Annuler votre abonnement',
    body: `Vous pouvez annuler à tout moment dans **Réglages → Facturation → Annuler l'offre**. Votre espace garde son offre payante jusqu'à la fin de la période réglée, puis passe à l'offre gratuite ; vous ne serez plus prélevé. Vos notes sont conservées.`,
  },
  {
    slug: 'exporter-notes',
    language: 'fr',
    title: 'Exporter vos notes',
    body: `Ouvrez le menu d'une note ou d'un carnet, choisissez **Exporter** puis un format : PDF, Markdown, HTML ou Word. L'export complet du compte se trouve dans **Réglages → Données → Tout exporter**.`,
  },
  {
    slug: 'factures',
    language: 'fr',
    title: 'Télécharger vos factures et reçus',
    body: `Chaque paiement donne lieu à une facture. Les propriétaires de l'espace les trouvent dans **Réglages → Facturation → Factures**, au format PDF. Pour faire figurer le nom de votre société ou votre numéro de TVA, modifiez les **Informations de facturation**.`,
  },
  // German
  {
    slug: 'passwort-zuruecksetzen',
    language: 'de',
    title: 'Passwort zurücksetzen',
    body: `Wenn Sie Ihr Passwort vergessen haben, öffnen Sie die Anmeldeseite und wählen Sie **Passwort vergessen?**. Geben Sie die E-Mail-Adresse Ihres Kontos ein; wir senden Ihnen einen Link, mit dem Sie ein neues Passwort festlegen. Der Link ist eine Stunde gültig.

Keine E-Mail erhalten? Sehen Sie im Spam-Ordner nach.`,
  },
  {
    slug: 'zwei-faktor',
    language: 'de',
    title: 'Zwei-Faktor-Authentifizierung',
    body: `Die Zwei-Faktor-Authentifizierung (2FA) schützt Ihr Konto mit einem zweiten Schritt: einem Code aus einer Authenticator-App auf Ihrem Smartphone. Aktivieren Sie sie unter **Einstellungen → Sicherheit**.

Gerät verloren oder gewechselt? Melden Sie sich mit einem Ihrer Wiederherstellungscodes an und richten Sie die App auf dem neuen Gerät erneut ein.`,
  },
  {
    slug: 'konto-loeschen',
    language: 'de',
    title: 'Ihr Konto löschen',
    body: `Beim Löschen Ihres Kontos werden Ihre Notizen, Anhänge und persönlichen Daten innerhalb von 30 Tagen endgültig entfernt, wie es die DSGVO verlangt. Exportieren Sie Ihre Notizen vorher, wenn Sie sie behalten möchten. Sie finden die Funktion unter **Einstellungen → Profil → Konto löschen**.`,
  },
  {
    slug: 'synchronisierung',
    language: 'de',
    title: 'Notizen werden nicht zwischen Geräten synchronisiert',
    body: `Inkpad gleicht Ihre Notizen in Sekunden zwischen Computer, Smartphone und Web ab. Erscheint eine Änderung nicht auf einem anderen Gerät, prüfen Sie, ob beide Geräte online und mit demselben Konto angemeldet sind, und aktualisieren Sie die App. Offline bearbeitete Notizen werden synchronisiert, sobald das Gerät wieder verbunden ist.`,
  },
];
