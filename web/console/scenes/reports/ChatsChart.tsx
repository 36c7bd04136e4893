/** Chats per day as bars, drawn with uPlot (loaded with this module only). */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

export function ChatsChart({ days }: { days: { day: string; chats: number }[] }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // Days at noon UTC, so every zone's label shows the report's own date.
    const xs = days.map((d) => Date.parse(`${d.day}T12:00:00Z`) / 1000);
    const ys = days.map((d) => d.chats);
    const width = () => Math.max(240, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 180,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
        axes: [{ stroke: '#5b6478', grid: { show: false } }, { stroke: '#5b6478', grid: { stroke: '#eef0f5' }, size: 40 }],
        series: [{}, { label: 'Chats', fill: 'rgba(79, 70, 229, 0.75)', stroke: '#4f46e5', paths: uPlot.paths.bars?.({ size: [0.7, 40] }), points: { show: false } }],
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

  return <div ref={box} className="reports__chart" role="img" aria-label={`Chats per day: ${days.reduce((n, d) => n + d.chats, 0)} in ${days.length} days`} />;
}
