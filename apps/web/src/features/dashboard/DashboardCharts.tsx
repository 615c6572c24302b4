import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_COLOR_HEX, statusColor, type ChartPoint } from '@venue/domain';
import { useDirection } from '../../platform/i18n/LocaleProvider';
import { useViewport } from '../../shared/useMediaQuery';
import { EChart } from './EChart';
import { echarts } from './echarts';

/** Shades of red so that the failure statuses stay apart while reading as "failed". */
const FAILED_SHADES = ['#cf1322', '#ff7875', '#a8071a', '#ff4d4f', '#820014', '#ffa39e', '#f5222d', '#5c0011'];

/** Category colours of the other charts (antd's palette, readable on white). */
const PALETTE = ['#1677ff', '#52c41a', '#faad14', '#722ed1', '#13c2c2', '#eb2f96', '#fa8c16', '#2f54eb', '#a0d911'];

function statusSliceColor(status: number, failedIndex: number): string {
  const cls = statusColor(status);
  if (cls === 'failed') return FAILED_SHADES[failedIndex % FAILED_SHADES.length];
  if (cls === 'worthless') return '#bfbfbf';
  return STATUS_COLOR_HEX[cls];
}

const FONT = { fontFamily: 'inherit' };
const esc = (s: string) => echarts.format.encodeHTML(s);

/** Formats a chart value for tooltips (money in the club's currency, counts as integers). */
export type ValueFormat = (value: number) => string;

/** Tooltip box in the reading direction, so Hebrew names and the value line up. */
function tooltipBase(rtl: boolean) {
  // Long (product, group) names wrap instead of running out of a phone's screen.
  return {
    confine: true,
    extraCssText: `direction: ${rtl ? 'rtl' : 'ltr'}; text-align: start; white-space: normal; overflow-wrap: anywhere; max-width: min(320px, 80vw);`,
  };
}

/** Height of the ring's square on a phone, px. */
const PHONE_RING = 220;

type Slice = { name: string; value: number; color?: string };

/**
 * A ring of slices with its legend at the inline start (beside the ring on
 * wide screens, under it on a phone, scrolling when long); names longer
 * than the legend's width are cut with an ellipsis and shown whole in the
 * tooltip.
 */
function Donut({ slices, testId, format }: { slices: Slice[]; testId: string; format: ValueFormat }) {
  const rtl = useDirection() === 'rtl';
  const narrow = useViewport() === 'phone';
  const option = useMemo(
    () => ({
      textStyle: FONT,
      color: PALETTE,
      // Slices differ by pattern as well as colour (the failure statuses are all red, WCAG 1.4.1),
      // and the chart's box carries its figures as text for screen readers (docs/accessibility.md).
      aria: {
        enabled: true,
        decal: { show: true },
        label: { description: slices.map((s) => `${s.name}: ${format(s.value)}`).join('; ') },
      },
      tooltip: {
        ...tooltipBase(rtl),
        trigger: 'item',
        formatter: (p: { name: string; value: number; percent: number; marker: string }) =>
          `${p.marker}${esc(p.name)}: <bdi>${esc(format(p.value))}</bdi> (<bdi>${p.percent}%</bdi>)`,
      },
      // Phone: the ring on top and one legend row per slice under it, at the inline start
      // (the box grows with the slices, so nothing is clipped); otherwise the legend beside the ring.
      legend: narrow
        ? {
            type: 'scroll',
            orient: 'vertical',
            top: PHONE_RING + 8,
            bottom: 4,
            ...(rtl ? { right: 8 } : { left: 8 }),
            align: rtl ? 'right' : 'left',
            textStyle: { width: 260, overflow: 'truncate' },
            tooltip: { show: true },
          }
        : {
            type: 'scroll',
            orient: 'vertical',
            top: 'middle',
            ...(rtl ? { right: 8 } : { left: 8 }),
            align: rtl ? 'right' : 'left',
            textStyle: { width: 150, overflow: 'truncate' },
            tooltip: { show: true },
          },
      series: [
        {
          type: 'pie',
          radius: narrow ? [PHONE_RING * 0.27, PHONE_RING * 0.46] : ['40%', '70%'],
          center: narrow ? ['50%', PHONE_RING / 2] : [rtl ? '35%' : '65%', '50%'],
          label: { show: false },
          data: slices.map((s) => ({
            name: s.name,
            value: s.value,
            ...(s.color ? { itemStyle: { color: s.color } } : {}),
          })),
        },
      ],
    }),
    [slices, rtl, narrow, format],
  );
  // Phone: ring + 24 px per legend row, at most 8 rows before the legend pages.
  const height = narrow ? PHONE_RING + 16 + Math.min(slices.length, 8) * 24 : undefined;
  return <EChart option={option} className="chart-box" testId={testId} height={height} />;
}

const integer: ValueFormat = (v) => String(v);

/** Entries by status, in the status colours (seed 000 §2, §4). */
export function StatusPieChart({ points }: { points: ChartPoint[] }) {
  const { t } = useTranslation();
  const slices = useMemo(() => {
    let failed = 0;
    return points.map((p) => {
      const status = Number(p.key);
      const color = statusSliceColor(status, statusColor(status) === 'failed' ? failed++ : 0);
      return { name: t(`status.${p.key}`, { defaultValue: p.key }), value: p.value, color };
    });
  }, [points, t]);
  return <Donut slices={slices} testId="chart-by-status" format={integer} />;
}

/**
 * A ring of named categories (entries by payment type, by group): `label`
 * turns a key into its display name in the current language.
 */
export function CategoryPieChart({
  points,
  label,
  testId,
}: {
  points: ChartPoint[];
  label: (key: string) => string;
  testId: string;
}) {
  const slices = useMemo(() => points.map((p) => ({ name: label(p.key), value: p.value })), [points, label]);
  return <Donut slices={slices} testId={testId} format={integer} />;
}

/**
 * Horizontal bars, one per category, largest-first order kept from the
 * server: categories read top to bottom, bars grow from the inline start
 * (right in Hebrew), the names sit at the inline start cut to fit (whole in
 * the tooltip). `format` formats tooltip values; `axisFormat` the value axis.
 */
export function CategoryBarChart({
  points,
  label,
  format,
  axisFormat,
  testId,
  seriesName,
  color,
}: {
  points: ChartPoint[];
  label: (key: string) => string;
  format: ValueFormat;
  axisFormat: ValueFormat;
  testId: string;
  seriesName: string;
  color: string;
}) {
  const rtl = useDirection() === 'rtl';
  const narrow = useViewport() === 'phone';
  const option = useMemo(() => {
    const names = points.map((p) => label(p.key));
    return {
      textStyle: FONT,
      aria: {
        enabled: true,
        label: { description: names.map((n, i) => `${n}: ${format(points[i].value)}`).join('; ') },
      },
      tooltip: {
        ...tooltipBase(rtl),
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (ps: { name: string; value: number; marker: string }[]) =>
          ps
            .map((p) => `${esc(p.name)}<br/>${p.marker}${esc(seriesName)}: <bdi>${esc(format(p.value))}</bdi>`)
            .join(''),
      },
      grid: { top: 8, bottom: 8, left: 8, right: 8, containLabel: true },
      xAxis: {
        type: 'value',
        inverse: rtl,
        axisLabel: { formatter: (v: number) => axisFormat(v), hideOverlap: true },
        minInterval: 1,
      },
      yAxis: {
        type: 'category',
        data: names,
        inverse: true, // first (largest) on top
        position: rtl ? 'right' : 'left',
        axisLabel: { width: narrow ? 90 : 160, overflow: 'truncate' },
        axisTick: { show: false },
      },
      series: [
        {
          type: 'bar',
          name: seriesName,
          data: points.map((p) => p.value),
          barMaxWidth: 28,
          itemStyle: { color, borderRadius: rtl ? [3, 0, 0, 3] : [0, 3, 3, 0] },
        },
      ],
    };
  }, [points, label, format, axisFormat, seriesName, color, rtl, narrow]);
  return <EChart option={option} className="chart-box" testId={testId} />;
}

/** Approved entries by hour of day (seed 000 §2 "entries by time"); hours run with the reading direction. */
export function HourBarChart({ points }: { points: ChartPoint[] }) {
  const { t } = useTranslation();
  const rtl = useDirection() === 'rtl';
  const option = useMemo(() => {
    const byHour = new Map(points.map((p) => [p.key.padStart(2, '0'), p.value]));
    const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
    const described = hours.filter((h) => byHour.has(h)).map((h) => `${h}:00: ${byHour.get(h)}`);
    return {
      textStyle: FONT,
      aria: { enabled: true, label: { description: `${t('dashboard.entries')} — ${described.join('; ')}` } },
      tooltip: { ...tooltipBase(rtl), trigger: 'axis' },
      grid: { top: 24, bottom: 40, left: 48, right: 48, containLabel: false },
      xAxis: {
        type: 'category',
        data: hours.map((h) => `${h}:00`),
        inverse: rtl,
        name: t('dashboard.hour'),
        nameLocation: 'middle',
        nameGap: 28,
      },
      yAxis: { type: 'value', position: rtl ? 'right' : 'left', minInterval: 1 },
      series: [
        {
          type: 'bar',
          name: t('dashboard.entries'),
          data: hours.map((h) => byHour.get(h) ?? 0),
          itemStyle: { color: STATUS_COLOR_HEX.entry, borderRadius: [3, 3, 0, 0] },
        },
      ],
    };
  }, [points, t, rtl]);
  return <EChart option={option} className="chart-box" testId="chart-by-time" />;
}
