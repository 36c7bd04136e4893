/** 'I agree to the Terms of Service and Privacy Policy', with links to both documents (legal page, invitations). */
import { Link } from 'react-router-dom';

export function TermsCheckbox({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>
        I agree to the{' '}
        <Link to="/legal/terms" target="_blank" rel="noopener">
          Terms of Service
        </Link>{' '}
        and{' '}
        <Link to="/legal/privacy-policy" target="_blank" rel="noopener">
          Privacy Policy
        </Link>
      </span>
    </label>
  );
}
