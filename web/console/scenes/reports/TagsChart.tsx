/** Conversations per tag over the range's days, weeks or months as lines, drawn with uPlot (loaded with this module only). */
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import type { TagRow, TrendBucket, TrendStep } from '../../../../server/shared/reports';
import { dayLabelStep } from './reportRules';

/** The chart draws the most used tags; the table beside it lists every one. */
export const CHART_TAGS = 6;
/** One colour a tag, each at least 3:1 against the white card (WCAG's contrast for graphics). */
const COLOURS = ['#4f46e5', '#c2410c', '#047857', '#be123c', '#0e7490', '#7e22ce'];

export function TagsChart({ buckets, step, tags }: { buckets: TrendBucket[]; step: TrendStep; tags: TagRow[] }) {
  const box = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => tags.slice(0, CHART_TAGS), [tags]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = buckets.map((_, i) => i);
    const labelStep = (u: uPlot) => dayLabelStep(buckets.length, u.width);
    const width = () => Math.max(240, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 180,
        legend: { show: false },
        cursor: { y: false },
        scales: {
          x: { time: false, range: () => [-0.25, Math.max(0.25, buckets.length - 0.75)] },
          y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
        },
        axes: [
          {
            stroke: '#5b6478',
            grid: { show: false },
            splits: (u) => xs.filter((i) => i % labelStep(u) === 0),
            values: (_u, splits) => splits.map((i) => buckets[i]?.label ?? ''),
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
          ...shown.map((tag, i) => ({
            label: tag.tag,
            stroke: COLOURS[i % COLOURS.length],
            width: 2,
            points: { show: buckets.length <= 31, size: 6 },
          })),
        ],
      },
      [xs, ...shown.map((tag) => tag.trend)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [buckets, shown]);

  return (
    <figure className="reports__tags-chart">
      <div
        ref={box}
        className="reports__chart"
        role="img"
        aria-label={`Conversations per ${step} by tag: ${shown.map((t) => `${t.tag} ${t.conversations}`).join(', ')}`}
      />
      <figcaption>
        <ul className="reports__legend">
          {shown.map((tag, i) => (
            <li key={tag.tag}>
              <span className="reports__swatch" style={{ background: COLOURS[i % COLOURS.length] }} aria-hidden="true" />
              {tag.tag}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
