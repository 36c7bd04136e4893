/** The upgrade warning of gated settings (spec section 2), reused by every tab whose feature the plan lacks. */
import { Link } from 'react-router-dom';

export function UpgradeWarning({ feature }: { feature: string }) {
  return (
    <div className="alert alert--warning upgrade-warning" role="status">
      <div className="alert__body">
        <div>
          Your plan does not have access to {feature}. Please <Link to="/account">Upgrade</Link>
        </div>
      </div>
    </div>
  );
}
