import { useId } from 'react';

export interface BarDatum {
  /** Short label under the bar ('Mar 2026'). */
  readonly label: string;
  readonly value: number;
  /** What a screen reader and the tooltip say for the bar ('Mar 2026: $1,234.00'). */
  readonly description: string;
}

export interface BarChartProps {
  /** The chart's accessible name (an SVG <title>). */
  readonly title: string;
  /** One sentence describing the data (an SVG <desc>). */
  readonly description?: string;
  readonly data: readonly BarDatum[];
  readonly height?: number;
}

const BAR_GAP = 6;
const LABEL_SPACE = 28;
const TOP_SPACE = 8;

/**
 * A small bar chart in plain SVG (no chart library): one bar per datum, scaled to the largest value, labels
 * under every other bar when crowded. `role="img"` with a title and description; each bar has its own
 * <title> so it reads on hover and to assistive technology. The same numbers show in a table next to it.
 */
export function BarChart({ title, description, data, height = 180 }: BarChartProps) {
  const id = useId();
  const width = Math.max(320, data.length * 44);
  const max = Math.max(0, ...data.map((d) => d.value));
  const barWidth = data.length > 0 ? (width - BAR_GAP * (data.length + 1)) / data.length : 0;
  const plotHeight = height - LABEL_SPACE - TOP_SPACE;
  const everyOther = data.length > 12;
  return (
    <svg
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-desc` : undefined}
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      preserveAspectRatio="none"
      style={{ maxWidth: width, display: 'block' }}
    >
      <title id={`${id}-title`}>{title}</title>
      {description && <desc id={`${id}-desc`}>{description}</desc>}
      <line
        x1={0}
        x2={width}
        y1={TOP_SPACE + plotHeight}
        y2={TOP_SPACE + plotHeight}
        stroke="var(--mantine-color-gray-4)"
      />
      {data.map((d, i) => {
        const h = max > 0 ? Math.max(d.value > 0 ? 1 : 0, (d.value / max) * plotHeight) : 0;
        const x = BAR_GAP + i * (barWidth + BAR_GAP);
        return (
          <g key={`${d.label}-${i}`}>
            <rect
              x={x}
              y={TOP_SPACE + plotHeight - h}
              width={barWidth}
              height={h}
              rx={2}
              fill="var(--mantine-color-blue-6)"
            >
              <title>{d.description}</title>
            </rect>
            {(!everyOther || i % 2 === 0) && (
              <text
                x={x + barWidth / 2}
                y={height - 10}
                textAnchor="middle"
                fontSize={11}
                fill="var(--mantine-color-dimmed)"
                aria-hidden="true"
              >
                {d.label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
