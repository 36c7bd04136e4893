/**
 * #/support: where to get help. With a support widget (SUPPORT_WIDGET_ID; in development the first local widget)
 * the page embeds Parley's own chat, the signed-in user identified, so their question reaches the Parley team's
 * Slack like any visitor's; without one, a contact panel drafts an e-mail to support. Plans with phone support
 * see the support phone number.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { CurrentUser, SupportView } from '../../../../server/shared';
import { getSupport } from '../../api/account';
import { BookIcon, LifebuoyIcon, MailIcon, PhoneIcon } from '../../components/icons';
import { DOCS_URL, FAQ_URL } from '../../components/Shell';
import { Button, PageHeader, TextField, useDocumentTitle } from '../../components/ui';
import { useUser } from '../../session/session';
import { SupportChat } from './SupportChat';

export function supportAddress(hostname: string): string {
  const host = hostname.replace(/^www\./, '') || 'localhost';
  return `support@${host}`;
}

/** The support line of plans with phone support (null otherwise), and the support widget; undefined while asked. */
export function useSupport(): SupportView | undefined {
  const [support, setSupport] = useState<SupportView>();
  useEffect(() => {
    let live = true;
    getSupport()
      .then((answer) => live && setSupport(answer))
      // Without an answer the page is what it was before: the docs and the mail link.
      .catch(() => live && setSupport({ widgetId: null, userHash: null, phone: null }));
    return () => {
      live = false;
    };
  }, []);
  return support;
}

export function Support() {
  useDocumentTitle('Support');
  const user = useUser();
  const address = supportAddress(window.location.hostname);
  const support = useSupport();

  return (
    <>
      <PageHeader title="Support" />
      <div className="grid-3">
        <a className="card card--link" href={DOCS_URL}>
          <BookIcon />
          <h2>Documentation</h2>
          <p className="muted">Install the widget, connect Slack and tune every setting.</p>
        </a>
        <a className="card card--link" href={FAQ_URL}>
          <LifebuoyIcon />
          <h2>FAQs</h2>
          <p className="muted">Quick answers about plans, billing and the trial.</p>
        </a>
        <a className="card card--link" href={`mailto:${address}`}>
          <MailIcon />
          <h2>Email us</h2>
          <p className="muted">{address}</p>
        </a>
        {support?.phone && (
          <a className="card card--link" href={`tel:${support.phone.replace(/[^+\d]/g, '')}`}>
            <PhoneIcon />
            <h2>Call us</h2>
            <p className="muted">
              {support.phone}
              <br />
              Phone support is part of your {user.account.plan.label} plan.
            </p>
          </a>
        )}
      </div>
      {support?.widgetId ? (
        <section className="card contact-frame support-chat" aria-labelledby="contact-title">
          <h2 id="contact-title">Chat with us</h2>
          <p className="muted">Ask anything here: the Parley team answers in this chat, and you can leave the page and come back to it.</p>
          <SupportChat widgetId={support.widgetId} userHash={support.userHash} user={user} />
        </section>
      ) : (
        support && <ContactForm user={user} address={address} />
      )}
    </>
  );
}

function ContactForm({ user, address }: { user: CurrentUser; address: string }) {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');

  const compose = (event: FormEvent) => {
    event.preventDefault();
    const body = `${message}\n\n—\nAccount: ${user.account.Id}\nUser: ${user.email}`;
    const href = `mailto:${address}?subject=${encodeURIComponent(subject || 'Parley support')}&body=${encodeURIComponent(body)}`;
    window.location.href = href;
  };

  return (
    <section className="card contact-frame" aria-labelledby="contact-title">
      <h2 id="contact-title">Contact support</h2>
      <p className="muted">
        Tell us what's going on. Your email app opens with the message ready to send, including your account details so we can help faster.
      </p>
      <form className="stack" onSubmit={compose}>
        <TextField label="From" value={user.email} readOnly />
        <TextField
          label="Subject"
          name="subject"
          value={subject}
          placeholder="e.g. The widget doesn't show on my site"
          onChange={(event) => setSubject(event.target.value)}
        />
        <div className="field">
          <label className="field__label" htmlFor="support-message">
            Message
          </label>
          <textarea
            id="support-message"
            className="field__input"
            rows={6}
            required
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
        </div>
        <div>
          <Button type="submit" disabled={message.trim() === ''}>
            Write to support
          </Button>
        </div>
      </form>
    </section>
  );
}
