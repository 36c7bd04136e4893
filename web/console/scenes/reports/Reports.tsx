/**
 * #/reports/overview, /history, /availability, /answers and /team (spec section 2, Reports): admins only (the sign-in guard sends
 * others to the dashboard), and only on plans with reports (an upgrade warning otherwise). The range and the
 * time zone are kept while moving between the three reports.
 */
import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { DEFAULT_RANGE_PRESET, RANGE_PRESET_LABELS, RANGE_PRESETS, type RangePreset, todayIn } from '../../../../server/shared/reports';
import { PageHeader, useDocumentTitle } from '../../components/ui';
import { useUser } from '../../session/session';
import { AnswersReportView } from './Answers';
import { AvailabilityReportView } from './Availability';
import { HistoryReportView } from './History';
import { OverviewReportView } from './Overview';
import { browserZone, type RangeChoice, zoneChoices } from './reportRules';
import { TeamReportView } from './Team';

export type ReportView = 'overview' | 'history' | 'availability' | 'answers' | 'team';

const TITLES: Record<ReportView, string> = {
  overview: 'Overview',
  history: 'History',
  availability: 'Availability',
  answers: 'Answers',
  team: 'Team',
};

export function Reports({ view }: { view: ReportView }) {
  const user = useUser();
  useDocumentTitle(`Reports · ${TITLES[view]}`);
  const [tz, setTz] = useState(browserZone);
  const today = todayIn(tz, new Date());
  const [range, setRange] = useState<RangeChoice>({ preset: DEFAULT_RANGE_PRESET, customStart: today, customEnd: today });
  const rooms = user.ces.filter((ce) => ce.Step === 3);

  return (
    <div className="reports">
      <PageHeader title="Reports" />
      {!user.account.effectivePlan.reports ? (
        <div className="alert alert--warning upgrade-warning" role="status">
          <div className="alert__body">
            <div>
              Your plan does not have access to reports. Please <Link to="/account">Upgrade</Link>
            </div>
          </div>
        </div>
      ) : (
        <>
          <nav className="settings-tabs reports__tabs" aria-label="Reports">
            {(Object.keys(TITLES) as ReportView[]).map((v) => (
              <NavLink key={v} to={`/reports/${v}`} className={({ isActive }) => `settings-tabs__tab${isActive ? ' active' : ''}`}>
                {TITLES[v]}
              </NavLink>
            ))}
          </nav>
          <div className="reports__controls">
            {view !== 'history' && <RangePicker value={range} onChange={setRange} today={today} />}
            <ZonePicker value={tz} onChange={setTz} />
          </div>
          {user.account.retentionDays !== null && (
            <p className="muted reports__retention">
              Data goes back {user.account.retentionDays} days: older conversations are deleted (data retention, on the Account page).
            </p>
          )}
          {rooms.length === 0 ? (
            <p className="reports__empty">Reports appear once a widget has finished setup.</p>
          ) : view === 'overview' ? (
            <OverviewReportView rooms={rooms} range={range} tz={tz} />
          ) : view === 'history' ? (
            <HistoryReportView rooms={rooms} tz={tz} />
          ) : view === 'answers' ? (
            <AnswersReportView rooms={rooms} range={range} tz={tz} />
          ) : view === 'team' ? (
            <TeamReportView rooms={rooms} range={range} tz={tz} />
          ) : (
            <AvailabilityReportView rooms={rooms} range={range} tz={tz} />
          )}
        </>
      )}
    </div>
  );
}

function RangePicker({ value, onChange, today }: { value: RangeChoice; onChange: (v: RangeChoice) => void; today: string }) {
  return (
    <div className="reports__range">
      <label className="field__label" htmlFor="report-range">
        Date range
      </label>
      <span className="reports__range-inputs">
        <select
          id="report-range"
          className="field__input"
          value={value.preset}
          onChange={(e) => onChange({ ...value, preset: e.target.value as RangePreset })}
        >
          {RANGE_PRESETS.map((p) => (
            <option key={p} value={p}>
              {RANGE_PRESET_LABELS[p]}
            </option>
          ))}
        </select>
        {value.preset === 'custom' && (
          <span className="reports__custom">
            <input
              type="date"
              aria-label="From"
              className="field__input"
              max={today}
              value={value.customStart}
              onChange={(e) => onChange({ ...value, customStart: e.target.value })}
            />
            <span aria-hidden="true">–</span>
            <input
              type="date"
              aria-label="To"
              className="field__input"
              max={today}
              value={value.customEnd}
              onChange={(e) => onChange({ ...value, customEnd: e.target.value })}
            />
          </span>
        )}
      </span>
    </div>
  );
}

function ZonePicker({ value, onChange }: { value: string; onChange: (tz: string) => void }) {
  return (
    <div className="reports__zone">
      <label className="field__label" htmlFor="report-zone">
        Time zone
      </label>
      <select id="report-zone" className="field__input" value={value} onChange={(e) => onChange(e.target.value)}>
        {zoneChoices(value).map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </select>
    </div>
  );
}
