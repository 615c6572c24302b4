import { lazy, Suspense, useMemo } from 'react';
import { Card, Col, Progress, Skeleton, Space, Statistic, Typography } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOccupancyNow } from './useOccupancy';

// The curve (and echarts with it) loads beside the tile, never before the dashboard's counters: a
// static import put echarts into the dashboard's own file, and the counters waited for it
// (bench/console-load.bench.mjs, issue 35: counters at 10.3 s on slow 4G with the full demo).
const EChart = lazy(() => import('../dashboard/EChart').then((m) => ({ default: m.EChart })));

/**
 * The dashboard's occupancy tile (issue 36; docs/gate-safety.md "Occupancy"): people inside now in
 * all and per area against its capacity, and the day's curve (inside at the end of each hour).
 * Nothing when the club has no areas.
 */
export function OccupancyTile() {
  const { t } = useTranslation();
  const now = useOccupancyNow();
  const option = useMemo(() => {
    const curve = now.data?.curve ?? [];
    const hours = curve.map((c) => `${String(c.hour).padStart(2, '0')}:00`);
    return {
      aria: {
        enabled: true,
        label: { description: curve.map((c, i) => `${hours[i]}: ${c.inside}`).join('; ') },
      },
      tooltip: { trigger: 'axis' },
      grid: { top: 16, bottom: 28, left: 40, right: 16 },
      xAxis: { type: 'category', data: hours },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', name: t('occupancy.inside'), data: curve.map((c) => c.inside) }],
    };
  }, [now.data, t]);
  if (!now.data || now.data.areas.length === 0) return null;
  return (
    <Col xs={24} xl={12}>
      <Card
        data-testid="occupancy-tile"
        title={
          <Space>
            <TeamOutlined />
            {t('occupancy.tileTitle')}
          </Space>
        }
        extra={<Link to="/management/occupancy">{t('occupancy.whoInside')}</Link>}
      >
        <Statistic title={t('occupancy.insideNow')} value={now.data.total} data-testid="occupancy-total" />
        {now.data.areas.map((a) => (
          <div key={a.id} data-testid={`occupancy-area-${a.id}`}>
            <Typography.Text>
              {a.name}: {a.inside}
              {a.capacity > 0 ? ` / ${a.capacity}` : ''}
            </Typography.Text>
            {a.capacity > 0 && (
              <Progress
                percent={Math.min(100, Math.round((a.inside / a.capacity) * 100))}
                status={a.full ? 'exception' : 'normal'}
                size="small"
                aria-label={a.name}
              />
            )}
          </div>
        ))}
        <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} title={false} />}>
          <EChart option={option} height={160} testId="occupancy-curve" />
        </Suspense>
        {now.data.autoClosedToday > 0 && (
          <Typography.Text type="warning">
            {t('occupancy.autoClosed', { count: now.data.autoClosedToday })}
          </Typography.Text>
        )}
      </Card>
    </Col>
  );
}
