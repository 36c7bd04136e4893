/** #/support: where to get help, with a contact panel that drafts an e-mail to support. */
import { type FormEvent, useState } from 'react';
import { BookIcon, LifebuoyIcon, MailIcon } from '../../components/icons';
import { DOCS_URL, FAQ_URL } from '../../components/Shell';
import { Button, PageHeader, TextField, useDocumentTitle } from '../../components/ui';
import { useUser } from '../../session/session';

export function supportAddress(hostname: string): string {
  const host = hostname.replace(/^www\./, '') || 'localhost';
  return `support@${host}`;
}

export function Support() {
  useDocumentTitle('Support');
  const user = useUser();
  const address = supportAddress(window.location.hostname);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');

  const compose = (event: FormEvent) => {
    event.preventDefault();
    const body = `${message}\n\n—\nAccount: ${user.account.Id}\nUser: ${user.email}`;
    const href = `mailto:${address}?subject=${encodeURIComponent(subject || 'Parley support')}&body=${encodeURIComponent(body)}`;
    window.location.href = href;
  };

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
      </div>
      <section className="card contact-frame" aria-labelledby="contact-title">
        <h2 id="contact-title">Contact support</h2>
        <p className="muted">
          Tell us what's going on. Your email app opens with the message ready to send, including your account details so we can help
          faster.
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
    </>
  );
}
