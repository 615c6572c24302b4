import { lazy, Suspense, useCallback, useState } from 'react';
import { Alert, Card, Col, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type ChartPoint, fromMinor } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { QueryState } from '../../shared/QueryState';
import { useViewport } from '../../shared/useMediaQuery';
import { errorText } from '../../shared/errors';
import { LiveFeed } from '../terminals/LiveFeed';
import type { ValueFormat } from './DashboardCharts';
import {
  useByItemType,
  useByProduct,
  useEntranceByGroup,
  useEntranceByPaymentType,
  useEntranceByStatus,
  useEntranceByTime,
  useHistoryStatus,
  type DashboardQuery,
} from './useDashboard';
import { LightIcon } from '../../shared/lightIcons';
import { counterText, dashboardCounters, dashboardDate, numberLocale, type Counter } from './counters';
import { CalendarIcon } from './counterIcons';
import { dashboardQuery } from './dashboardQueries';
import '../../shared/light.css';
import { OpenIncidentsCard } from '../incidents/OpenIncidentsCard';
import { OccupancyTile } from '../occupancy/OccupancyTile';

// The charts (and echarts with them) load beside the counters, not before
// them: the counters show as soon as their numbers arrive (issue 19 load speed).
// They are asked for as soon as this file runs (its own imports, the
// signed-in frame's, have arrived), not once the screen has drawn: the link
// is free by then, while the main thread draws the frame (issue 35).
const loadCharts = () => import('./DashboardCharts');
void loadCharts().catch(() => undefined);
const StatusPieChart = lazy(() => loadCharts().then((m) => ({ default: m.StatusPieChart })));
const HourBarChart = lazy(() => loadCharts().then((m) => ({ default: m.HourBarChart })));
const CategoryPieChart = lazy(() => loadCharts().then((m) => ({ default: m.CategoryPieChart })));
const CategoryBarChart = lazy(() => loadCharts().then((m) => ({ default: m.CategoryBarChart })));

/** A counter card: skeleton while loading, "—" and the translated error (with retry) on failure. */
function CountCard({ counter }: { counter: Counter }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const query = useQuery(dashboardQuery<{ value: number }>(counter.entry));
  const title = t(counter.titleKey);
  const icon = <LightIcon icon={counter.icon} />;
  return (
    <Card data-testid={counter.testId}>
      {query.isPending ? (
        <Skeleton active paragraph={false} />
      ) : query.isError ? (
        <Statistic title={title} value="—" prefix={icon} />
      ) : (
        <Statistic
          title={title}
          value={query.data.value}
          prefix={icon}
          formatter={(v) => (
            <span className="ltr-value" data-counter="">
              {counterText(counter.kind, Number(v), lang, club.currencySymbol)}
            </span>
          )}
        />
      )}
      {query.isError && (
        <Typography.Text type="danger">
          {errorText(t, query.error)}{' '}
          <Typography.Link onClick={() => void query.refetch()}>{t('common.retry')}</Typography.Link>
        </Typography.Text>
      )}
    </Card>
  );
}

/** A chart card with its own loading, error and "no data" states. */
function ChartCard({
  title,
  query,
  testId,
  extra,
  children,
}: {
  title: string;
  query: DashboardQuery<ChartPoint[]>;
  testId: string;
  extra?: React.ReactNode;
  children: React.ReactNode;
}) {
  // On a phone the switch goes under the title, so that a long title is not cut.
  const narrow = useViewport() === 'phone';
  return (
    <Card title={title} extra={narrow ? undefined : extra} data-testid={testId} className="dashboard-chart-card">
      {narrow && extra && <div style={{ marginBlockEnd: 12 }}>{extra}</div>}
      <QueryState
        loading={query.isPending}
        error={query.error}
        empty={(query.data ?? []).every((p) => p.value === 0)}
        onRetry={() => void query.refetch()}
      >
        <Suspense fallback={<Skeleton active />}>{children}</Suspense>
      </QueryState>
    </Card>
  );
}

type Measure = 'amount' | 'quantity';

function MeasureSwitch({
  value,
  onChange,
  testId,
}: {
  value: Measure;
  onChange: (m: Measure) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<Measure>
      size="small"
      data-testid={testId}
      value={value}
      onChange={onChange}
      options={[
        { value: 'amount', label: t('dashboard.amount') },
        { value: 'quantity', label: t('dashboard.quantity') },
      ]}
    />
  );
}

/** Money (agorot) in the club's currency, compact money for chart axes, and counts, in the console's language. */
function useDashboardFormats() {
  const lang = useLanguage();
  const { club } = useSessionData();
  const locale = numberLocale(lang);
  const money = useCallback<ValueFormat>(
    (v) => counterText('money', v, lang, club.currencySymbol),
    [club.currencySymbol, lang],
  );
  const compactMoney = useCallback<ValueFormat>(
    (v) =>
      `${club.currencySymbol}${new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(fromMinor(v))}`,
    [club.currencySymbol, locale],
  );
  const count = useCallback<ValueFormat>(
    (v) => counterText('count', v, lang, club.currencySymbol),
    [lang, club.currencySymbol],
  );
  return { money, compactMoney, count };
}

/** /dashboard (seed 000 §2 "Dashboard content"): counters and charts of this club. */
export function DashboardPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.dashboard')}</Typography.Title>
        <span className="page-subtitle" data-testid="hebrew-date">
          <LightIcon icon={CalendarIcon} /> {dashboardDate(lang, club.location?.timeZone)}
        </span>
      </div>
      <HistoryNotice />
      <Row gutter={[16, 16]} className="stat-cards">
        <CounterCards />
        <EntranceCharts />
        <SalesCharts />
        <OpenIncidentsCard />
        <OccupancyTile />
        <Col xs={24}>
          <LiveFeed />
        </Col>
      </Row>
    </>
  );
}

/**
 * Says plainly that the club's history is still being written (the demo's
 * year after its first start), how far it got, and that the figures fill in
 * by themselves; nothing when it is not.
 */
function HistoryNotice() {
  const { t } = useTranslation();
  const status = useHistoryStatus().data;
  if (!status?.writing) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBlockEnd: 16 }}
      data-testid="history-notice"
      message={t('dashboard.historyWriting.title')}
      description={t('dashboard.historyWriting.body', { day: status.day ?? 0, days: status.days ?? 0 })}
    />
  );
}

/** The six counters (counters.ts): entrances this month, active clients, income this month, last week's arrivals, licenses. */
function CounterCards() {
  return (
    <>
      {dashboardCounters().map((c) => (
        <Col key={c.testId} xs={24} sm={12} xl={8}>
          <CountCard counter={c} />
        </Col>
      ))}
    </>
  );
}

/** Entrances by status, by hour, by payment type and by group. */
function EntranceCharts() {
  const { t } = useTranslation();
  const byStatus = useEntranceByStatus();
  const byTime = useEntranceByTime();
  const byPaymentType = useEntranceByPaymentType();
  const byGroup = useEntranceByGroup();
  const paymentTypeLabel = useCallback((k: string) => t(`dashboard.paymentType.${k}`, { defaultValue: k }), [t]);
  const groupLabel = useCallback((k: string) => k || t('dashboard.noGroup'), [t]);
  return (
    <>
      <Col xs={24} lg={12}>
        <ChartCard title={t('dashboard.byStatus')} query={byStatus} testId="card-by-status">
          <StatusPieChart points={byStatus.data ?? []} />
        </ChartCard>
      </Col>
      <Col xs={24} lg={12}>
        <ChartCard title={t('dashboard.byTime')} query={byTime} testId="card-by-time">
          <HourBarChart points={byTime.data ?? []} />
        </ChartCard>
      </Col>
      <Col xs={24} lg={12}>
        <ChartCard title={t('dashboard.byPaymentType')} query={byPaymentType} testId="card-by-payment-type">
          <CategoryPieChart points={byPaymentType.data ?? []} label={paymentTypeLabel} testId="chart-by-payment-type" />
        </ChartCard>
      </Col>
      <Col xs={24} lg={12}>
        <ChartCard title={t('dashboard.byGroup')} query={byGroup} testId="card-by-group">
          <CategoryPieChart points={byGroup.data ?? []} label={groupLabel} testId="chart-by-group" />
        </ChartCard>
      </Col>
    </>
  );
}

/** Sales by item type and by product, each by amount (agorot) or quantity. */
function SalesCharts() {
  const { t } = useTranslation();
  const { money, compactMoney, count } = useDashboardFormats();
  const [itemMeasure, setItemMeasure] = useState<Measure>('amount');
  const [productMeasure, setProductMeasure] = useState<Measure>('amount');
  const byItemType = useByItemType(itemMeasure);
  const byProduct = useByProduct(productMeasure);
  const itemTypeLabel = useCallback((k: string) => t(`money.itemType.${k}`, { defaultValue: k }), [t]);
  const productLabel = useCallback((k: string) => k || t('dashboard.unnamedProduct'), [t]);
  return (
    <>
      <Col xs={24} lg={12}>
        <ChartCard
          title={t('dashboard.byItemType')}
          query={byItemType}
          testId="card-by-item-type"
          extra={<MeasureSwitch value={itemMeasure} onChange={setItemMeasure} testId="measure-item-type" />}
        >
          <CategoryBarChart
            points={byItemType.data ?? []}
            label={itemTypeLabel}
            format={itemMeasure === 'amount' ? money : count}
            axisFormat={itemMeasure === 'amount' ? compactMoney : count}
            seriesName={t(`dashboard.${itemMeasure}`)}
            color="#1677ff"
            testId="chart-by-item-type"
          />
        </ChartCard>
      </Col>
      <Col xs={24} lg={12}>
        <ChartCard
          title={t('dashboard.byProduct')}
          query={byProduct}
          testId="card-by-product"
          extra={<MeasureSwitch value={productMeasure} onChange={setProductMeasure} testId="measure-product" />}
        >
          <CategoryBarChart
            points={byProduct.data ?? []}
            label={productLabel}
            format={productMeasure === 'amount' ? money : count}
            axisFormat={productMeasure === 'amount' ? compactMoney : count}
            seriesName={t(`dashboard.${productMeasure}`)}
            color="#722ed1"
            testId="chart-by-product"
          />
        </ChartCard>
      </Col>
    </>
  );
}
