/** A bar sparkline as inline SVG: one bar per day, oldest first (the dashboard's 30-day window). */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const width = 240;
  const height = 40;
  const gap = 2;
  const max = Math.max(1, ...values);
  const barWidth = values.length > 0 ? (width - gap * (values.length - 1)) / values.length : 0;
  return (
    <svg className="sparkline" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label}>
      {values.map((value, index) => {
        // Days with no chats keep a hairline so the 30-day rhythm stays readable.
        const barHeight = value > 0 ? Math.max(3, (value / max) * height) : 1.5;
        return (
          <rect
            key={index}
            className={value > 0 ? 'sparkline__bar' : 'sparkline__bar sparkline__bar--empty'}
            x={index * (barWidth + gap)}
            y={height - barHeight}
            width={barWidth}
            height={barHeight}
            rx={Math.min(2, barWidth / 2)}
          >
            <title>{value === 1 ? '1 chat' : `${value} chats`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
