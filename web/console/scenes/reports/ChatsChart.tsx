/** Chats per day as bars, drawn with uPlot (loaded with this module only). */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { dayLabelStep } from './reportRules';

export function ChatsChart({ days }: { days: { day: string; chats: number }[] }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // One bar per day of the report, labelled with its own date (not an instant: days differ by zone).
    const xs = days.map((_, i) => i);
    const ys = days.map((d) => d.chats);
    // As many day labels as fit side by side at the chart's width, on whole steps of days.
    const step = (u: uPlot) => dayLabelStep(days.length, u.width);
    const label = (i: number) => {
      const day = days[i]?.day;
      return day
        ? new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))
        : '';
    };
    const width = () => Math.max(240, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 180,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        scales: {
          x: { time: false, range: () => [-0.5, days.length - 0.5] },
          y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
        },
        axes: [
          {
            stroke: '#5b6478',
            grid: { show: false },
            splits: (u) => xs.filter((i) => i % step(u) === 0),
            values: (_u, splits) => splits.map(label),
          },
          {
            stroke: '#5b6478',
            grid: { stroke: '#eef0f5' },
            size: 40,
            values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')),
          },
        ],
        series: [
          {},
          {
            label: 'Chats',
            fill: 'rgba(79, 70, 229, 0.75)',
            stroke: '#4f46e5',
            paths: uPlot.paths.bars?.({ size: [0.6, 48] }),
            points: { show: false },
          },
        ],
      },
      [xs, ys],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);

  return (
    <div
      ref={box}
      className="reports__chart"
      role="img"
      aria-label={`Chats per day: ${days.reduce((n, d) => n + d.chats, 0)} in ${days.length} days`}
    />
  );
}
