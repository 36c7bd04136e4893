/** The colourful panel beside the sign-in forms: what Parley does, and on sign-up what customers say. */
import { TRIAL_DAYS } from '../../../../server/shared/constants';
import { CheckIcon } from '../../components/icons';

const TESTIMONIALS = [
  {
    quote:
      'We answer website visitors from the Slack channel we already live in. Setup took five minutes and our response time dropped to under a minute.',
    name: 'Maya Okafor',
    role: 'Head of Customer Success, Brightloom',
  },
  {
    quote: 'No new inbox to watch and no new app for the team to learn. Every chat is a thread, so hand-offs are painless.',
    name: 'Daniel Reyes',
    role: 'Founder, Tidewater Coffee Co.',
  },
];

export function TrialPromise() {
  return (
    <p className="trial-promise">
      <strong>{TRIAL_DAYS}-day free trial.</strong> No credit card required.
    </p>
  );
}

export function BrandPanel({ testimonials = false }: { testimonials?: boolean }) {
  return (
    <div className="brand">
      <div className="brand__intro">
        <p className="brand__eyebrow">Live chat, answered from Slack</p>
        <h2 className="brand__headline">Talk to your website visitors without leaving Slack.</h2>
        <ul className="brand__points">
          <li>
            <CheckIcon /> Every conversation is a thread in the channel you choose
          </li>
          <li>
            <CheckIcon /> A light widget that never slows your site down
          </li>
          <li>
            <CheckIcon /> Online when your team is, offline messages when it isn't
          </li>
        </ul>
      </div>
      {testimonials && (
        <section className="brand__testimonials" aria-label="What customers say">
          {TESTIMONIALS.map((t) => (
            <figure className="testimonial" key={t.name}>
              <blockquote>“{t.quote}”</blockquote>
              <figcaption>
                <span className="testimonial__avatar" aria-hidden="true">
                  {t.name
                    .split(' ')
                    .map((word) => word[0])
                    .join('')}
                </span>
                <span>
                  <strong>{t.name}</strong>
                  <span className="testimonial__role">{t.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </section>
      )}
    </div>
  );
}
