/** What a gated tab shows when the plan lacks its feature: the upgrade warning and a zero state leading to /account. */
import type { ReactNode } from 'react';
import { ArrowRightIcon } from '../../../components/icons';
import { ButtonLink } from '../../../components/ui';
import { UpgradeWarning } from '../UpgradeWarning';

export function LockedState({ feature, title, children }: { feature: string; title: string; children: ReactNode }) {
  return (
    <>
      <UpgradeWarning feature={feature} />
      <section className="card empty-state">
        <h2>{title}</h2>
        <div className="muted">{children}</div>
        <p className="muted">Anything set up here is kept, and works again on a plan that includes it.</p>
        <ButtonLink to="/account">
          Upgrade your plan <ArrowRightIcon />
        </ButtonLink>
      </section>
    </>
  );
}
