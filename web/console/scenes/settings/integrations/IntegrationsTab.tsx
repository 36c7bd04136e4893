/**
 * #/settings/{ceId}/integrations: one row for Slack with the bots and users added to new conversations
 * (in words: '1 bot and 1 teammate join each new conversation', or Disabled) and a configure link opening the bots
 * modal (spec section 2), and one row for Segment: whether the widget's events go to Segment and how the last batch
 * fared, configured under Behavior.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { type BotUserView, botsStatusText } from '../../../../../server/shared/bots';
import type { SegmentStatusView } from '../../../../../server/shared/integrations';
import { messageOf } from '../../../api';
import { listBotUsers, segmentStatus } from '../../../api/settingsFeatures';
import { SlackMark } from '../../../components/moreIcons';
import { PageLoader } from '../../../components/ui';
import { LockedState } from '../gated/LockedState';
import type { SettingsTabProps } from '../types';
import { BotsDialog } from './BotsDialog';

/** The Segment row's status text. */
export function segmentStatusText(status: SegmentStatusView): string {
  if (!status.enabled) return 'Disabled';
  if (status.lastError) return `Failing: ${status.lastError}`;
  if (status.lastDeliveredAt) return `Sending: last batch accepted ${new Date(status.lastDeliveredAt).toLocaleString()}`;
  return 'Enabled: no events sent yet';
}

function SegmentRow({ ceId, status }: { ceId: string; status: SegmentStatusView | null }) {
  return (
    <tr>
      <td className="table__strong">
        <span className="integrations__name">Segment</span>
        <span className="muted integrations__what">Chat events sent to your Segment source, server-side</span>
      </td>
      <td data-label="Status">{status ? segmentStatusText(status) : 'Loading…'}</td>
      <td className="table__actions">
        <Link className="link-button" to={`/settings/${ceId}/behavior`}>
          configure
        </Link>
      </td>
    </tr>
  );
}

function IntegrationsTable({ children }: { children: React.ReactNode }) {
  return (
    <section className="card settings-section">
      <h2>Integrations</h2>
      <div className="table-wrap">
        <table className="table integrations__table">
          <thead>
            <tr>
              <th scope="col">Integration</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </section>
  );
}

export default function IntegrationsTab({ ce, locked, showError }: SettingsTabProps) {
  const [bots, setBots] = useState<BotUserView[] | null>(null);
  const [segment, setSegment] = useState<SegmentStatusView | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    segmentStatus(ce.Id).then(setSegment, (err: unknown) => showError(messageOf(err)));
  }, [ce.Id, showError]);

  useEffect(() => {
    if (locked) return;
    listBotUsers(ce.Id).then(setBots, (err: unknown) => {
      showError(messageOf(err));
      setBots([]);
    });
  }, [ce.Id, locked, showError]);
  const onChanged = useCallback((list: BotUserView[]) => setBots(list), []);

  if (locked) {
    return (
      <>
        <LockedState feature="Integrations" title="Add your first integration">
          Add Slack bots and teammates to every new conversation by themselves, so they can answer, log or route it.
        </LockedState>
        <div className="settings-form integrations integrations--after-lock">
          <IntegrationsTable>
            <SegmentRow ceId={ce.Id} status={segment} />
          </IntegrationsTable>
        </div>
      </>
    );
  }
  if (bots === null) return <PageLoader label="Loading integrations…" />;

  return (
    <div className="settings-form integrations">
      <IntegrationsTable>
        <tr>
          <td className="table__strong">
            <span className="integrations__name">
              <SlackMark size={22} /> Slack
            </span>
            <span className="muted integrations__what">Bots and users added to each new conversation</span>
          </td>
          <td data-label="Status">{bots.length > 0 ? botsStatusText(bots) : 'Disabled'}</td>
          <td className="table__actions">
            <button type="button" className="link-button" onClick={() => setOpen(true)}>
              configure
            </button>
          </td>
        </tr>
        <SegmentRow ceId={ce.Id} status={segment} />
      </IntegrationsTable>
      <BotsDialog ceId={ce.Id} open={open} onClose={() => setOpen(false)} onChanged={onChanged} />
    </div>
  );
}
