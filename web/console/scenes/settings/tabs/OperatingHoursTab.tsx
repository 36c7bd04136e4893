/**
 * Operating Hours (spec sections 2, 4, 5): zero state, the schedule switch, time zone, the channel message
 * option and the weekly table (Monday to Sunday, 15-minute steps, add and delete pairs, copy to all days).
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { OperatingHour } from '../../../../../server/shared';
import { formatHhmm, HOUR_STEP_MINUTES, hoursOverlapAt, TIME_CHOICES } from '../../../../../server/shared/settings';
import { PlusIcon } from '../../../components/icons';
import { TrashIcon } from '../../../components/moreIcons';
import { browserTimeZone, Check, Select, timeZones } from '../form';
import { SaveButton, useSaveButton } from '../saveButton';
import type { SettingsTabProps } from '../types';

/** Monday first, as the table shows them; weekday numbers are 0 = Sunday .. 6. */
const DAYS = [
  { weekday: 1, name: 'Monday' },
  { weekday: 2, name: 'Tuesday' },
  { weekday: 3, name: 'Wednesday' },
  { weekday: 4, name: 'Thursday' },
  { weekday: 5, name: 'Friday' },
  { weekday: 6, name: 'Saturday' },
  { weekday: 0, name: 'Sunday' },
] as const;

type Pair = { start: number | null; end: number | null };
type Week = Record<number, Pair[]>;

const toMinutes = (hhmm: number) => Math.floor(hhmm / 100) * 60 + (hhmm % 100);
const toHhmm = (minutes: number) => Math.floor(minutes / 60) * 100 + (minutes % 60);
const MAX = 24 * 60;

function weekOf(hours: readonly OperatingHour[]): Week {
  const week: Week = {};
  for (const h of [...hours].sort((a, b) => a.start - b.start)) (week[h.weekday] ??= []).push({ start: h.start, end: h.end });
  return week;
}

/**
 * A pair after one of its ends changed (spec section 4): only start set on an empty pair sets the end 15 minutes
 * later; only end set sets the start 15 minutes earlier; an end before the start swaps them.
 */
export function changedPair(pair: Pair, which: 'start' | 'end', value: number): Pair {
  const next = { ...pair, [which]: value };
  if (which === 'start' && pair.end === null) next.end = toHhmm(Math.min(toMinutes(value) + HOUR_STEP_MINUTES, MAX));
  if (which === 'end' && pair.start === null) next.start = toHhmm(Math.max(toMinutes(value) - HOUR_STEP_MINUTES, 0));
  if (next.start !== null && next.end !== null && next.end < next.start) return { start: next.end, end: next.start };
  return next;
}

/** The entries to save: complete pairs whose start and end differ (equal pairs are omitted, spec section 4). */
export function hoursOf(week: Week, ceId: string): OperatingHour[] {
  const out: OperatingHour[] = [];
  for (const { weekday } of DAYS) {
    for (const p of [...(week[weekday] ?? [])].sort((a, b) => (a.start ?? 0) - (b.start ?? 0))) {
      if (p.start !== null && p.end !== null && p.start !== p.end) out.push({ weekday, ceId, start: p.start, end: p.end });
    }
  }
  return out;
}

const TIME_OPTIONS = TIME_CHOICES.map((t) => ({ value: String(t), label: formatHhmm(t) }));

export default function OperatingHoursTab({ ce, save, setDirty }: SettingsTabProps) {
  const [editing, setEditing] = useState(ce.operatingHours.length > 0 || ce.onOffSchedule);
  const [week, setWeek] = useState<Week>(() => weekOf(ce.operatingHours));
  const [scheduleOn, setScheduleOn] = useState(ce.onOffSchedule);
  const [tz, setTz] = useState(ce.tz || browserTimeZone());
  const [announce, setAnnounce] = useState(ce.sendOpHourChangeMessages);
  const [lastChanged, setLastChanged] = useState<number | null>(null);
  const button = useSaveButton();

  const changes = useMemo(
    () => ({ onOffSchedule: scheduleOn, tz, sendOpHourChangeMessages: announce, operatingHours: hoursOf(week, ce.Id) }),
    [scheduleOn, tz, announce, week, ce.Id],
  );
  const saved = JSON.stringify({
    onOffSchedule: ce.onOffSchedule,
    tz: ce.tz,
    sendOpHourChangeMessages: ce.sendOpHourChangeMessages,
    operatingHours: hoursOf(weekOf(ce.operatingHours), ce.Id),
  });
  const dirty = editing && JSON.stringify(changes) !== saved;
  // Two pairs of one day that overlap are refused by the server too; say so here, before saving.
  const overlap = hoursOverlapAt(changes.operatingHours);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);

  const edit = (weekday: number, pairs: Pair[]) => {
    setWeek((w) => {
      const next = { ...w };
      if (pairs.length === 0) delete next[weekday];
      else next[weekday] = pairs;
      return next;
    });
    setLastChanged(weekday);
  };

  const copyToAll = (weekday: number) => {
    const pairs = week[weekday] ?? [];
    setWeek(Object.fromEntries(DAYS.map((d) => [d.weekday, pairs.map((p) => ({ ...p }))])));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (overlap) return;
    await button.run(() => save(changes));
  };

  if (!editing) {
    return (
      <section className="card empty-state">
        <h2>Set the hours your team answers chats</h2>
        <p className="muted">
          Outside these hours the widget is offline: visitors leave a message or see nothing, as you chose in Behavior.
        </p>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            setEditing(true);
            setScheduleOn(true);
            if (ce.tz === 'UTC' || !ce.tz) setTz(browserTimeZone());
            setWeek(Object.fromEntries([1, 2, 3, 4, 5].map((d) => [d, [{ start: 900, end: 1700 }]])));
          }}
        >
          Setup chat schedule
        </button>
        <SlackNote />
      </section>
    );
  }

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <section className="card settings-section">
        <div className="schedule-head">
          <label className="schedule-switch">
            <input
              type="checkbox"
              role="switch"
              checked={scheduleOn}
              aria-checked={scheduleOn}
              onChange={(e) => setScheduleOn(e.target.checked)}
              aria-describedby="schedule-state"
            />
            <span className="schedule-switch__track" aria-hidden="true" />
            <span>
              Schedule <strong id="schedule-state">{scheduleOn ? 'ON' : 'OFF'}</strong>
            </span>
          </label>
          <div className="schedule-tz">
            <Select label="Time zone" value={tz} options={timeZones(tz).map((z) => ({ value: z, label: z }))} onChange={setTz} />
          </div>
        </div>
        <Check
          label="Post a bot message in the main channel when the hours turn the widget on or off"
          checked={announce}
          onChange={setAnnounce}
        />

        <table className="hours-table">
          <caption className="sr-only">Weekly operating hours</caption>
          <tbody>
            {DAYS.map(({ weekday, name }) => {
              const pairs = week[weekday] ?? [];
              return (
                <tr key={weekday}>
                  <th scope="row">{name}</th>
                  <td>
                    {pairs.length === 0 && <span className="muted">Closed</span>}
                    {pairs.map((pair, i) => (
                      <div className="hours-pair" key={i}>
                        <TimeSelect
                          label={`${name} start ${i + 1}`}
                          value={pair.start}
                          onChange={(t) =>
                            edit(
                              weekday,
                              pairs.map((p, j) => (j === i ? changedPair(p, 'start', t) : p)),
                            )
                          }
                        />
                        <span aria-hidden="true">–</span>
                        <TimeSelect
                          label={`${name} end ${i + 1}`}
                          value={pair.end}
                          onChange={(t) =>
                            edit(
                              weekday,
                              pairs.map((p, j) => (j === i ? changedPair(p, 'end', t) : p)),
                            )
                          }
                        />
                        <button
                          type="button"
                          className="icon-btn"
                          aria-label={`Delete ${name} hours ${i + 1}`}
                          onClick={() =>
                            edit(
                              weekday,
                              pairs.filter((_, j) => j !== i),
                            )
                          }
                        >
                          <TrashIcon />
                        </button>
                      </div>
                    ))}
                    {overlap?.weekday === weekday && (
                      <p className="field__error" role="alert">
                        {overlap.message}
                      </p>
                    )}
                  </td>
                  <td className="hours-table__actions">
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Add hours on ${name}`}
                      onClick={() => edit(weekday, [...pairs, { start: null, end: null }])}
                    >
                      <PlusIcon />
                    </button>
                    {lastChanged === weekday && (
                      <button type="button" className="link-button" onClick={() => copyToAll(weekday)}>
                        copy to all days
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="field__hint">Changes take effect at once; after that the widget turns on and off at each scheduled time.</p>
        <div className="panel-actions">
          <SaveButton id="save-op-hours" state={button.state} disabled={overlap !== null || (!dirty && button.state === 'idle')} />
        </div>
      </section>
      <SlackNote />
    </form>
  );
}

function TimeSelect({ label, value, onChange }: { label: string; value: number | null; onChange: (hhmm: number) => void }) {
  return (
    <select
      className="field__input field__select hours-select"
      aria-label={label}
      value={value === null ? '' : String(value)}
      onChange={(e) => onChange(Number(e.target.value))}
    >
      {value === null && <option value="">--:--</option>}
      {TIME_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function SlackNote() {
  return (
    <p className="muted fine-print schedule-note">
      In Slack, <code className="inline-code">/parley off</code> and <code className="inline-code">/parley on</code> switch the widget by
      hand, <code className="inline-code">/parley schedule on</code> or <code className="inline-code">off</code> switches this schedule, and{' '}
      <code className="inline-code">/parley hours</code> prints the hours.
    </p>
  );
}
