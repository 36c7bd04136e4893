/** A bar sparkline as inline SVG: one bar per day, oldest first (the dashboard's 30-day window). */

export type SparklineDay = { date?: string; value: number };

export function Sparkline({ days, label }: { days: readonly SparklineDay[]; label: string }) {
  const width = 240;
  const height = 40;
  const gap = 2;
  const max = Math.max(1, ...days.map((d) => d.value));
  const barWidth = days.length > 0 ? (width - gap * (days.length - 1)) / days.length : 0;
  return (
    <svg className="sparkline" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label}>
      {days.map((day, index) => {
        // Days with no chats keep a hairline so the 30-day rhythm stays readable.
        const barHeight = day.value > 0 ? Math.max(3, (day.value / max) * height) : 1.5;
        const count = day.value === 1 ? '1 chat' : `${day.value} chats`;
        return (
          <rect
            key={day.date ?? index}
            className={day.value > 0 ? 'sparkline__bar' : 'sparkline__bar sparkline__bar--empty'}
            x={index * (barWidth + gap)}
            y={height - barHeight}
            width={barWidth}
            height={barHeight}
            rx={Math.min(2, barWidth / 2)}
          >
            <title>{day.date ? `${formatDay(day.date)}: ${count}` : count}</title>
          </rect>
        );
      })}
    </svg>
  );
}

function formatDay(date: string): string {
  const parsed = new Date(`${date.slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}
