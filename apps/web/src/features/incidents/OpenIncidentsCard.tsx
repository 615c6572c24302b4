import { Badge, Card, Col, Empty, Skeleton, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/auth/useCan';
import { useIncidents } from './useIncidents';
import { useFormat } from '../../shared/useFormat';

/** How many open incidents the dashboard lists (the rest are on the incidents screen). */
const SHOWN = 5;

/**
 * The dashboard's open incidents (issue 16), live: shown when the club's
 * incident reports are on (the `incidents` entry's rule).
 */
export function OpenIncidentsCard() {
  const allowed = useCan()({ open: 'incidents' });
  return allowed ? <OpenIncidents /> : null;
}

function OpenIncidents() {
  const { t } = useTranslation();
  const query = useIncidents('open');
  const fmt = useFormat();
  const items = query.data?.items ?? [];
  return (
    <Col xs={24} lg={12}>
      <Card
        data-testid="dashboard-incidents"
        title={
          <span>
            <AlertOutlined /> {t('incidents.open')} <Badge count={items.length} showZero color="orange" />
          </span>
        }
        extra={<Link to="/management/incidents">{t('incidents.all')}</Link>}
      >
        {/* A plain list in antd's small-list look (app.css .plain-list): antd's List brings its
            pagination and Select to the dashboard (issue 19 load speed). */}
        {query.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} />
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('incidents.empty')} />
        ) : (
          <ul className="plain-list">
            {items.slice(0, SHOWN).map((i) => (
              <li key={i.id}>
                <span dir="auto">{i.categoryName}</span>
                <Typography.Text type="secondary">
                  {i.terminalName ?? t(`incidents.sources.${i.source}`)} ·{' '}
                  <span className="ltr-value">{fmt.time(i.createdAt)}</span>
                </Typography.Text>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </Col>
  );
}
