import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_COLOR_HEX, statusColor, type ChartPoint } from '@venue/domain';
import { useDirection } from '../../app/i18n/LocaleProvider';
import { useViewport } from '../../shared/useMediaQuery';
import { EChart } from './EChart';

/** Shades of red so that the failure statuses stay apart while reading as "failed". */
const FAILED_SHADES = ['#cf1322', '#ff7875', '#a8071a', '#ff4d4f', '#820014', '#ffa39e', '#f5222d', '#5c0011'];

function statusSliceColor(status: number, failedIndex: number): string {
  const cls = statusColor(status);
  if (cls === 'failed') return FAILED_SHADES[failedIndex % FAILED_SHADES.length];
  if (cls === 'worthless') return '#bfbfbf';
  return STATUS_COLOR_HEX[cls];
}

const FONT = { fontFamily: 'inherit' };

/** Entries by status, in the status colours (seed 000 §2, §4). */
export function StatusPieChart({ points }: { points: ChartPoint[] }) {
  const { t } = useTranslation();
  const rtl = useDirection() === 'rtl';
  const narrow = useViewport() === 'phone';
  const option = useMemo(() => {
    let failed = 0;
    const data = points.map((p) => {
      const status = Number(p.key);
      const color = statusSliceColor(status, statusColor(status) === 'failed' ? failed++ : 0);
      return { name: t(`status.${p.key}`, { defaultValue: p.key }), value: p.value, itemStyle: { color } };
    });
    return {
      textStyle: FONT,
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      // On a phone the legend goes under the ring; otherwise beside it, at the inline start.
      legend: narrow
        ? { type: 'scroll', orient: 'horizontal', bottom: 0, left: 'center' }
        : {
            type: 'scroll',
            orient: 'vertical',
            top: 'middle',
            ...(rtl ? { right: 8 } : { left: 8 }),
            align: rtl ? 'right' : 'left',
          },
      series: [
        {
          type: 'pie',
          radius: narrow ? ['35%', '62%'] : ['40%', '70%'],
          center: narrow ? ['50%', '42%'] : [rtl ? '35%' : '65%', '50%'],
          label: { show: false },
          data,
        },
      ],
    };
  }, [points, t, rtl, narrow]);
  return <EChart option={option} className="chart-box" testId="chart-by-status" />;
}

/** Approved entries by hour of day (seed 000 §2 "entries by time"); hours run with the reading direction. */
export function HourBarChart({ points }: { points: ChartPoint[] }) {
  const { t } = useTranslation();
  const rtl = useDirection() === 'rtl';
  const option = useMemo(() => {
    const byHour = new Map(points.map((p) => [p.key.padStart(2, '0'), p.value]));
    const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
    return {
      textStyle: FONT,
      tooltip: { trigger: 'axis' },
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
