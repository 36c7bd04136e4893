/** The support phone number, on the Account screen of plans with phone support (nothing for other plans). */
import { PhoneIcon } from '../../components/icons';
import { useSupport } from '../support/Support';

export function PhoneSupport({ plan }: { plan: string }) {
  const phone = useSupport()?.phone;
  if (!phone) return null;
  return (
    <section className="card account-section account-phone" aria-labelledby="phone-title">
      <PhoneIcon />
      <div>
        <h2 id="phone-title">Phone support</h2>
        <p className="muted">
          Call <a href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{phone}</a>: phone support is part of your {plan} plan.
        </p>
      </div>
    </section>
  );
}
