import type { ReactNode } from 'react';
import { Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReportMeta, ReportResult, ReportValueType } from '@venue/domain';
import { useViewport } from '../../shared/useMediaQuery';

type Format = (type: ReportValueType, v: unknown) => ReactNode;

/**
 * The report's totals over every matching row (cards, one per `meta.totals`
 * entry) and its breakdowns (chips `group · value` per `meta.breakdowns`
 * entry, hidden while empty). Money in minor units (agorot), formatted by `fmt`.
 */
export function ReportTotals({
  meta,
  data,
  loading,
  fmt,
}: {
  meta: ReportMeta;
  data: ReportResult | undefined;
  loading: boolean;
  fmt: Format;
}) {
  const { t } = useTranslation();
  const phone = useViewport() === 'phone';
  return (
    <>
      <div className="totals-bar" data-testid="report-totals" style={{ marginBlockEnd: 12 }}>
        {meta.totals.map((tm) => (
          <Statistic
            key={tm.key}
            className={phone ? 'report-total-compact' : undefined}
            title={t([`reports.total.${tm.key}`, `reports.col.${tm.key}`])}
            loading={loading}
            valueRender={() => (
              <span data-testid={`report-total-${tm.key}`}>{data ? fmt(tm.type, data.totals[tm.key]) : null}</span>
            )}
          />
        ))}
      </div>
      {data &&
        (meta.breakdowns ?? []).map((b) => {
          const values = data.totals[b.key];
          if (!values || typeof values !== 'object' || Object.keys(values).length === 0) return null;
          return (
            <div key={b.key} className="report-breakdown" data-testid={`report-breakdown-${b.key}`}>
              <Typography.Text type="secondary">{t(`reports.breakdown.${b.key}`)}:</Typography.Text>{' '}
              {Object.entries(values).map(([k, v]) => (
                <Tag key={k} style={{ marginBlockEnd: 4 }}>
                  {/* The key as sent: a number for numeric codes (the formatter reads it), a word for
                      audit entities and actions, cash states and debt sources. */}
                  {b.by === 'text' ? k || t('reports.console') : fmt(b.by, k)} · {fmt(b.type, v)}
                </Tag>
              ))}
            </div>
          );
        })}
    </>
  );
}
