/** #/legal/terms and #/legal/privacy-policy: the documents a user accepts, readable signed in or not. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { TERMS_VERSION } from '../../../../server/shared/constants';
import { Logo } from '../../components/Logo';
import { useDocumentTitle } from '../../components/ui';

const MONTHS: Record<string, string> = {
  JAN: 'January',
  FEB: 'February',
  MAR: 'March',
  APR: 'April',
  MAY: 'May',
  JUN: 'June',
  JUL: 'July',
  AUG: 'August',
  SEP: 'September',
  OCT: 'October',
  NOV: 'November',
  DEC: 'December',
};

/** A terms version such as 11AUG2020 read as the date it names (11 August 2020); other versions as they are. */
export function versionDate(version: string): string {
  const match = /^(\d{1,2})([A-Z]{3})(\d{4})$/.exec(version);
  const month = match ? MONTHS[match[2] ?? ''] : undefined;
  return match && month ? `${Number(match[1])} ${month} ${match[3]}` : version;
}

function DocumentPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="doc-page">
      <header className="doc-page__head">
        <Link to="/" aria-label="Parley home">
          <Logo size={30} />
        </Link>
        <nav aria-label="Legal documents">
          <Link to="/legal/terms">Terms</Link>
          <Link to="/legal/privacy-policy">Privacy</Link>
        </nav>
      </header>
      <main className="doc-page__body">
        <article className="prose">
          <h1>{title}</h1>
          <p className="muted">Last updated {versionDate(TERMS_VERSION)}</p>
          {children}
        </article>
      </main>
    </div>
  );
}

export function TermsOfService() {
  return (
    <DocumentPage title="Terms of Service">
      <p>
        These terms govern your use of Parley, a service that puts a chat widget on your website and lets your team answer visitors from
        Slack. By creating an account or using the service you agree to them on behalf of yourself and the organisation you represent.
      </p>
      <h2>1. Your account</h2>
      <p>
        You are responsible for the activity of your account and for keeping your password safe. Account administrators may invite other
        users and manage their access. Tell us at once if you suspect unauthorised use.
      </p>
      <h2>2. Trial, plans and billing</h2>
      <p>
        New accounts start with a free trial of 30 days that requires no credit card. After the trial, continued use requires a paid plan.
        Plans renew automatically each month or year until cancelled; a cancellation takes effect at the end of the period already paid.
        Prices exclude applicable taxes.
      </p>
      <h2>3. Acceptable use</h2>
      <p>
        Do not use Parley to send spam, to harass visitors, to collect data you are not entitled to collect, or to break any law. Do not
        attempt to disrupt the service or to access other customers' data. We may suspend accounts that do.
      </p>
      <h2>4. Your content</h2>
      <p>
        Conversations and settings remain yours. You grant us the rights needed to store, process and relay them between your website and
        your Slack workspace in order to provide the service. You can export or delete your data at any time.
      </p>
      <h2>5. Third-party services</h2>
      <p>
        Parley works with Slack and with a payment provider. Your use of those services is governed by their own terms. We are not
        responsible for their availability.
      </p>
      <h2>6. Availability and changes</h2>
      <p>
        We work to keep the service available and secure but provide it "as is". We may change these terms; when we do, we will ask you to
        accept the new version before you continue using the console.
      </p>
      <h2>7. Liability</h2>
      <p>
        To the extent the law allows, our total liability for any claim is limited to the amount you paid for the service in the twelve
        months before the claim.
      </p>
      <h2>8. Ending the agreement</h2>
      <p>
        You may close your account at any time. We may end the agreement if you seriously breach these terms. On closure we delete your data
        after a reasonable retention period, unless the law requires us to keep it.
      </p>
    </DocumentPage>
  );
}

export function PrivacyPolicy() {
  return (
    <DocumentPage title="Privacy Policy">
      <p>
        This policy explains what personal data Parley processes, why, and the choices you have. It covers the people who use the console
        (our customers) and the visitors who chat through a customer's widget.
      </p>
      <h2>1. Data we process</h2>
      <ul>
        <li>Account data: your e-mail address, password (stored only as a salted hash), and account settings.</li>
        <li>Billing data: plan, invoices and the last digits of your card; full card numbers stay with the payment provider.</li>
        <li>Conversation data: messages, and the visitor details your widget is configured to collect.</li>
        <li>Technical data: logs needed to secure and operate the service.</li>
      </ul>
      <h2>2. Why we process it</h2>
      <p>
        To provide the service you signed up for, to bill for it, to keep it secure, and to contact you about your account. We do not sell
        personal data.
      </p>
      <h2>3. Visitors of our customers</h2>
      <p>
        For conversations on a customer's website, the customer decides what is collected and is the controller of that data; Parley
        processes it on their behalf and relays it to their Slack workspace.
      </p>
      <h2>4. Sub-processors</h2>
      <p>We rely on hosting, e-mail delivery, Slack and a payment provider. Each receives only the data it needs to do its part.</p>
      <h2>5. Retention</h2>
      <p>Account and conversation data are kept while your account is active and deleted after it is closed.</p>
      <h2>6. Your rights</h2>
      <p>
        You can access, correct, export or delete your data. Account administrators can request an export from the account page. For
        anything else, contact support.
      </p>
    </DocumentPage>
  );
}
