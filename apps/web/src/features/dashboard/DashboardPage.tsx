import { lazy, Suspense, useCallback, useState } from 'react';
import { Alert, Card, Col, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import {
  CalendarOutlined,
  CarryOutOutlined,
  ExclamationCircleOutlined,
  LoginOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatMinor, hebrewDate, JERUSALEM, localParts, type ChartPoint, fromMinor } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { QueryState } from '../../shared/QueryState';
import { useViewport } from '../../shared/useMediaQuery';
import { errorText } from '../../shared/errors';
import { LiveFeed } from '../terminals/LiveFeed';
import type { ValueFormat } from './DashboardCharts';
import {
  useActiveClientsCount,
  useByItemType,
  useByProduct,
  useEntranceByGroup,
  useEntranceByPaymentType,
  useEntranceByStatus,
  useEntranceByTime,
  useExpiredLicenses,
  useHistoryStatus,
  useLastWeekArrivals,
  useMonthlyEntranceCount,
  useMonthlyIncome,
  useValidLicenses,
  type DashboardQuery,
} from './useDashboard';
import { OpenIncidentsCard } from '../incidents/OpenIncidentsCard';
import { OccupancyTile } from '../occupancy/OccupancyTile';

// The charts (and echarts with them) load beside the counters, not before
// them: the counters show as soon as their numbers arrive (issue 19 load speed).
const loadCharts = () => import('./DashboardCharts');
const StatusPieChart = lazy(() => loadCharts().then((m) => ({ default: m.StatusPieChart })));
const HourBarChart = lazy(() => loadCharts().then((m) => ({ default: m.HourBarChart })));
const CategoryPieChart = lazy(() => loadCharts().then((m) => ({ default: m.CategoryPieChart })));
const CategoryBarChart = lazy(() => loadCharts().then((m) => ({ default: m.CategoryBarChart })));

/** A counter card: skeleton while loading, "—" and the translated error (with retry) on failure. */
function CountCard({
  title,
  icon,
  query,
  testId,
  format,
}: {
  title: string;
  icon: React.ReactNode;
  query: DashboardQuery<{ value: number }>;
  testId: string;
  format?: ValueFormat;
}) {
  const { t } = useTranslation();
  return (
    <Card data-testid={testId}>
      {query.isPending ? (
        <Skeleton active paragraph={false} />
      ) : query.isError ? (
        <Statistic title={title} value="—" prefix={icon} />
      ) : (
        <Statistic
          title={title}
          value={query.data.value}
          prefix={icon}
          formatter={format ? (v) => <span className="ltr-value">{format(Number(v))}</span> : undefined}
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
  const locale = lang === 'he' ? 'he-IL' : 'en-US';
  const money = useCallback<ValueFormat>(
    (v) => `${club.currencySymbol}${formatMinor(v, locale)}`,
    [club.currencySymbol, locale],
  );
  const compactMoney = useCallback<ValueFormat>(
    (v) =>
      `${club.currencySymbol}${new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(fromMinor(v))}`,
    [club.currencySymbol, locale],
  );
  const count = useCallback<ValueFormat>((v) => new Intl.NumberFormat(locale).format(v), [locale]);
  return { money, compactMoney, count };
}

/** /dashboard (seed 000 §2 "Dashboard content"): counters and charts of this club. */
export function DashboardPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const today = localParts(new Date(), club.location?.timeZone ?? JERUSALEM.timeZone);
  const hebToday = hebrewDate(today, lang);
  const gregToday = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: club.location?.timeZone ?? JERUSALEM.timeZone,
  }).format(new Date());

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.dashboard')}</Typography.Title>
        <span className="page-subtitle" data-testid="hebrew-date">
          <CalendarOutlined /> {hebToday} · {gregToday}
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

/** The six counters: entrances this month, active clients, income this month, last week's arrivals, licenses. */
function CounterCards() {
  const { t } = useTranslation();
  const { money } = useDashboardFormats();
  const monthly = useMonthlyEntranceCount();
  const active = useActiveClientsCount();
  const income = useMonthlyIncome();
  const lastWeek = useLastWeekArrivals();
  const valid = useValidLicenses();
  const expired = useExpiredLicenses();
  return (
    <>
      <Col xs={24} sm={12} xl={8}>
        <CountCard
          title={t('dashboard.monthlyEntrances')}
          icon={<LoginOutlined />}
          query={monthly}
          testId="card-monthly-entrances"
        />
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <CountCard
          title={t('dashboard.activeClients')}
          icon={<TeamOutlined />}
          query={active}
          testId="card-active-clients"
        />
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <CountCard
          title={t('dashboard.monthlyIncome')}
          icon={<WalletOutlined />}
          query={income}
          testId="card-monthly-income"
          format={money}
        />
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <CountCard
          title={t('dashboard.lastWeekArrivals')}
          icon={<CarryOutOutlined />}
          query={lastWeek}
          testId="card-last-week-arrivals"
        />
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <CountCard
          title={t('dashboard.validLicenses')}
          icon={<SafetyCertificateOutlined />}
          query={valid}
          testId="card-valid-licenses"
        />
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <CountCard
          title={t('dashboard.expiredLicenses')}
          icon={<ExclamationCircleOutlined />}
          query={expired}
          testId="card-expired-licenses"
        />
      </Col>
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
