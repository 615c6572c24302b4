import { Badge, Card, Col, List, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/auth/useCan';
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
        <List
          size="small"
          loading={query.isPending}
          dataSource={items.slice(0, SHOWN)}
          locale={{ emptyText: t('incidents.empty') }}
          renderItem={(i) => (
            <List.Item>
              <span dir="auto">{i.categoryName}</span>
              <Typography.Text type="secondary">
                {i.terminalName ?? t(`incidents.sources.${i.source}`)} ·{' '}
                <span className="ltr-value">{fmt.time(i.createdAt)}</span>
              </Typography.Text>
            </List.Item>
          )}
        />
      </Card>
    </Col>
  );
}
