import type { ReactNode } from 'react';
import { DatePicker, Segmented } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PERIODS, type Period, type ReportFilter } from '@venue/domain';

export interface PeriodValue {
  period: Period;
  anchor: Dayjs;
  range: [Dayjs, Dayjs];
}

/** The period part of a report filter (seed 001 §2: day, week, month, year, range; weeks start Sunday). */
export function periodToFilter(v: PeriodValue): Pick<ReportFilter, 'period' | 'anchor' | 'from' | 'to'> {
  if (v.period === 'range') {
    return { period: 'range', from: v.range[0].format('YYYY-MM-DD'), to: v.range[1].format('YYYY-MM-DD') };
  }
  return { period: v.period, anchor: v.anchor.format('YYYY-MM-DD') };
}

const PICKER: Record<Exclude<Period, 'range'>, 'date' | 'week' | 'month' | 'year'> = {
  day: 'date',
  week: 'week',
  month: 'month',
  year: 'year',
};

/** Shared filter bar of the reports: period control, anchor or range, and report-specific filters. */
export function ReportFilterBar({
  value,
  onChange,
  children,
}: {
  value: PeriodValue;
  onChange: (v: PeriodValue) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="toolbar report-filter" data-testid="report-filter">
      <Segmented<Period>
        value={value.period}
        onChange={(p) => onChange({ ...value, period: p })}
        options={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
        aria-label={t('a11y.period')}
        data-testid="report-period"
      />
      {value.period === 'range' ? (
        <DatePicker.RangePicker
          value={value.range}
          allowClear={false}
          aria-label={t('a11y.dateRange')}
          onChange={(r) => {
            if (r?.[0] && r[1]) onChange({ ...value, range: [r[0], r[1]] });
          }}
          data-testid="report-range"
        />
      ) : (
        <DatePicker
          picker={PICKER[value.period]}
          value={value.anchor}
          allowClear={false}
          aria-label={t('a11y.date')}
          onChange={(d) => d && onChange({ ...value, anchor: d })}
          data-testid="report-anchor"
        />
      )}
      {children}
    </div>
  );
}
