/** #/error and the page-not-found page (any unknown route). */
import { Logo } from '../../components/Logo';
import { ButtonLink, useDocumentTitle } from '../../components/ui';

function Standalone({ code, title, text }: { code: string; title: string; text?: string }) {
  useDocumentTitle(code === '404' ? 'Page Not Found' : 'Error');
  return (
    <main className="standalone">
      <Logo size={32} />
      <p className="standalone__code" aria-hidden="true">
        {code}
      </p>
      <h1 className="standalone__title">{title}</h1>
      {text && <p className="muted">{text}</p>}
      <ButtonLink to="/">Return Home</ButtonLink>
    </main>
  );
}

export function NotFound() {
  return <Standalone code="404" title="Page Not Found" text="The page you are looking for doesn't exist or has moved." />;
}

export function ErrorPage() {
  return <Standalone code="Oops" title="Oh no! An unexpected error occurred, please contact support" />;
}
