import { Card, Col, Row, Skeleton, Statistic, Typography } from 'antd';
import { CalendarOutlined, LoginOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { hebrewDate, JERUSALEM, localParts } from '@venue/domain';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { LiveFeed } from '../terminals/LiveFeed';
import { HourBarChart, StatusPieChart } from './DashboardCharts';
import { useActiveClientsCount, useEntranceByStatus, useEntranceByTime, useMonthlyEntranceCount } from './useDashboard';

function CountCard({
  title,
  icon,
  query,
  testId,
}: {
  title: string;
  icon: React.ReactNode;
  query: ReturnType<typeof useMonthlyEntranceCount>;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Card data-testid={testId}>
      {query.isPending ? (
        <Skeleton active paragraph={false} />
      ) : query.isError ? (
        <Statistic title={title} value="—" prefix={icon} />
      ) : (
        <Statistic title={title} value={query.data.value} prefix={icon} />
      )}
      {query.isError && <Typography.Text type="danger">{errorText(t, query.error)}</Typography.Text>}
    </Card>
  );
}

/** /dashboard (seed 000 §2): counters and charts of this club. */
export function DashboardPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const monthly = useMonthlyEntranceCount();
  const active = useActiveClientsCount();
  const byStatus = useEntranceByStatus();
  const byTime = useEntranceByTime();
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
      <Row gutter={[16, 16]} className="stat-cards">
        <Col xs={24} sm={12}>
          <CountCard
            title={t('dashboard.monthlyEntrances')}
            icon={<LoginOutlined />}
            query={monthly}
            testId="card-monthly-entrances"
          />
        </Col>
        <Col xs={24} sm={12}>
          <CountCard
            title={t('dashboard.activeClients')}
            icon={<TeamOutlined />}
            query={active}
            testId="card-active-clients"
          />
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('dashboard.byStatus')}>
            <QueryState
              loading={byStatus.isPending}
              error={byStatus.error}
              empty={(byStatus.data ?? []).every((p) => p.value === 0)}
              onRetry={() => void byStatus.refetch()}
            >
              <StatusPieChart points={byStatus.data ?? []} />
            </QueryState>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('dashboard.byTime')}>
            <QueryState
              loading={byTime.isPending}
              error={byTime.error}
              empty={(byTime.data ?? []).every((p) => p.value === 0)}
              onRetry={() => void byTime.refetch()}
            >
              <HourBarChart points={byTime.data ?? []} />
            </QueryState>
          </Card>
        </Col>
        <Col xs={24}>
          <LiveFeed />
        </Col>
      </Row>
    </>
  );
}
