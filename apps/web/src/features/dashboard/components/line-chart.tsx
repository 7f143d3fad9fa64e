/**
 * A line chart (uPlot: small, canvas, no eval — fine under the strict CSP) with its text
 * alternative: the canvas is an image described by a summary, and every value is in a table
 * under it (WCAG 1.1.1). uPlot is imported here only, so it loads with the dashboard pages,
 * never with the sign-in page or the shell. The x axis is an index with labels given by the
 * caller (dates, times) in the reader's language; charts read left to right in Arabic too.
 */
import theme from 'antd/es/theme';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  dashed?: boolean;
}

export interface LineChartProps {
  title: string;
  /** one label per point (x axis and the table's first column) */
  labels: string[];
  series: ChartSeries[];
  /** the first column's heading (date, time) */
  labelHeading: string;
  format?: (value: number) => string;
  /** counts: whole-number ticks only */
  integer?: boolean;
  height?: number;
  testId?: string;
}

export const CHART_COLORS = ['#1668dc', '#389e0d', '#d46b08', '#722ed1', '#cf1322', '#08979c'];

/** Whole-number tick steps (1, 2, 5, 10, 20, 50, …) for counts. */
const INTEGER_STEPS = Array.from({ length: 30 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));

export function LineChart({ title, labels, series, labelHeading, format = String, integer, height = 240, testId }: LineChartProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // Latest data for the chart built below (axis labels are read when drawn).
  const labelsRef = useRef(labels);
  const seriesRef = useRef(series);
  labelsRef.current = labels;
  seriesRef.current = series;
  const shape = `${series.map((s) => `${s.label}|${s.color}`).join(',')}|${token.colorTextSecondary}`;

  // The chart is built when its series change (names, colours, theme) and fed new data otherwise.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const axis = {
      stroke: token.colorTextSecondary,
      grid: { stroke: token.colorBorderSecondary, width: 1 },
      ticks: { stroke: token.colorBorderSecondary, width: 1 },
    };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      // Counts start at zero; a flat line of zeros still gets a visible range.
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(integer ? 1 : 0.001, max)] } },
      axes: [
        { ...axis, values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? plain(labelsRef.current[s] ?? '') : '')) },
        { ...axis, size: 56, ...(integer ? { incrs: INTEGER_STEPS } : {}), values: (_u, splits) => splits.map((s) => format(s)) },
      ],
      series: [
        {},
        ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, dash: s.dashed ? [6, 4] : undefined, points: { show: labels.length <= 31 } })),
      ],
    };
    plot.current = new uPlot(opts, dataOf(labelsRef.current, seriesRef.current), el);
    const observer = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(200, el.clientWidth), height }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [shape, height, integer]);

  useEffect(() => {
    plot.current?.setData(dataOf(labels, series));
  }, [labels, series]);

  const summary = t('dashboard.chart_summary', { title, count: labels.length, from: labels[0] ?? '', to: labels[labels.length - 1] ?? '' });
  return (
    <figure className="line-chart" data-testid={testId}>
      <figcaption className="line-chart__title">{title}</figcaption>
      <ul className="line-chart__legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.label}>
            <span className={`line-chart__swatch${s.dashed ? ' line-chart__swatch--dashed' : ''}`} style={{ borderColor: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
      <div className="line-chart__canvas" dir="ltr" role="img" aria-label={summary} ref={box} />
      <details className="line-chart__data">
        <summary>{t('dashboard.show_table')}</summary>
        <div className="line-chart__table-wrap" tabIndex={0} role="region" aria-label={title} data-scrollable="">
          <table className="line-chart__table">
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{labelHeading}</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={`${label}-${i}`}>
                  <th scope="row">{label}</th>
                  {series.map((s) => (
                    <td key={s.label}>{s.values[i] === null || s.values[i] === undefined ? '—' : format(s.values[i]!)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/**
 * Canvas text without bidi marks: Arabic dates carry RLM/ALM marks that, drawn in the chart's
 * left-to-right canvas, would scramble "24/11" into "2411/".
 */
const plain = (text: string) => text.replace(/[\u061c\u200e\u200f]/g, '');

function dataOf(labels: string[], series: ChartSeries[]): uPlot.AlignedData {
  return [labels.map((_, i) => i), ...series.map((s) => s.values)];
}
