import { useState } from 'react';
import { Button, Segmented, Space, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { ApiOutlined, CheckOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Incident, IncidentStatus } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { ReportIncidentDrawer } from './ReportIncidentDrawer';
import { useHandleIncident, useIncidents } from './useIncidents';
import { DeliveryLog, WebhookDrawer } from './WebhookPanel';
import { ListTable } from '../../shared/CardList';
import { useFormat } from '../../shared/useFormat';

type Filter = IncidentStatus | 'all';

/**
 * /management/incidents (issue 16; shown when the club's incident reports are
 * on): what clients reported at terminals and staff in the console, live;
 * staff mark them handled.
 */
export function IncidentsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const [filter, setFilter] = useState<Filter>('open');
  const [reporting, setReporting] = useState(false);
  const [webhook, setWebhook] = useState(false);
  const isOperator = useCan()({ operator: true });
  const query = useIncidents(filter);
  const handle = useHandleIncident();
  const fmt = useFormat();
  const when = (iso: string | null) => (iso ? <span className="ltr-value">{fmt.dateTime(iso)}</span> : '—');

  const columns: TableColumnsType<Incident> = [
    { title: t('incidents.time'), dataIndex: 'createdAt', render: when },
    { title: t('incidents.category'), dataIndex: 'categoryName', render: (v: string) => <span dir="auto">{v}</span> },
    {
      title: t('feedbackCategories.type'),
      dataIndex: 'type',
      render: (v: string) => t(`feedbackCategories.types.${v}`),
    },
    { title: t('incidents.severity'), dataIndex: 'severityId' },
    { title: t('incidents.terminal'), dataIndex: 'terminalName', render: (v: string | null) => v ?? '—' },
    { title: t('incidents.source'), dataIndex: 'source', render: (v: string) => t(`incidents.sources.${v}`) },
    { title: t('incidents.note'), dataIndex: 'note', render: (v: string) => <span dir="auto">{v || '—'}</span> },
    {
      title: t('incidents.status'),
      key: 'status',
      render: (_, i) =>
        i.status === 'open' ? (
          <Button
            size="small"
            icon={<CheckOutlined />}
            data-testid="incident-handle"
            onClick={() =>
              void handle.mutateAsync(i.id).then(
                () => toast.success(t('incidents.handledDone')),
                (e: unknown) => toast.error(errorText(t, e)),
              )
            }
          >
            {t('incidents.markHandled')}
          </Button>
        ) : (
          <Tag color="green">{t('incidents.handledBy', { name: i.handledBy ?? '', at: when(i.handledAt) })}</Tag>
        ),
    },
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.incidents')}</Typography.Title>
        <Space wrap>
          {isOperator && (
            <Button icon={<ApiOutlined />} onClick={() => setWebhook(true)} data-testid="incident-webhook">
              {t('incidents.webhook.open')}
            </Button>
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setReporting(true)} data-testid="incident-new">
            {t('incidents.report')}
          </Button>
        </Space>
      </div>
      <Tabs
        items={[
          {
            key: 'incidents',
            label: t('incidents.tabs.incidents'),
            children: (
              <>
                <Segmented<Filter>
                  value={filter}
                  onChange={setFilter}
                  style={{ marginBlockEnd: 16 }}
                  options={(['open', 'handled', 'all'] as const).map((f) => ({
                    value: f,
                    label: t(`incidents.filter.${f}`),
                  }))}
                />
                <ListTable<Incident>
                  rowKey="id"
                  columns={columns}
                  dataSource={query.data?.items ?? []}
                  loading={query.isPending}
                  pagination={{ pageSize: 50, hideOnSinglePage: true }}
                  scroll={{ x: 'max-content' }}
                  locale={{ emptyText: query.isError ? errorText(t, query.error) : t('incidents.empty') }}
                />
              </>
            ),
          },
          { key: 'deliveries', label: t('incidents.tabs.deliveries'), children: <DeliveryLog /> },
        ]}
      />
      <ReportIncidentDrawer open={reporting} onClose={() => setReporting(false)} />
      <WebhookDrawer open={webhook} onClose={() => setWebhook(false)} />
    </>
  );
}
