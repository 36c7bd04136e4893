/** Routes whose screens belong to later releases say so plainly instead of showing a blank page. */
import { ButtonLink, PageHeader, useDocumentTitle } from '../../components/ui';

export function Upcoming({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} />
      <section className="card empty-state">
        <h2>Not available yet</h2>
        <p className="muted">This part of the Parley console arrives in a later release.</p>
        <ButtonLink to="/" variant="secondary">
          Back to the dashboard
        </ButtonLink>
      </section>
    </>
  );
}
