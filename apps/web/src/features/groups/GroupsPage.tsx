import { useNavigate } from 'react-router';
import { Button, Tag, Typography, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Group } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useGroupList } from './useGroups';
import { ListTable } from '../../shared/CardList';

const STATE_COLORS: Record<number, string> = { 1: 'red', 2: 'green', 3: 'blue', 4: 'gold', 6: 'cyan', 7: 'purple' };

/** /management/app-groups-list: the client groups of the club. */
export function GroupsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useGroupList();
  const open = (id: number | 'new') => void navigate(`/management/app-groups-list/${id}`);

  const columns: TableProps<Group>['columns'] = [
    {
      title: t('groups.name'),
      dataIndex: 'name',
      key: 'name',
      render: (_, g) => (
        <Typography.Link onClick={() => open(g.id)}>
          <span className="color-dot" style={{ background: g.color }} />
          {g.name}
        </Typography.Link>
      ),
    },
    {
      title: t('groups.entranceState'),
      dataIndex: 'entranceState',
      key: 'entranceState',
      render: (s: number, g) =>
        g.allowEntrance ? (
          <Tag color={STATE_COLORS[s]}>{t(`entranceState.${s}`)}</Tag>
        ) : (
          <Tag>{t('groups.entranceBlocked')}</Tag>
        ),
    },
    { title: t('groups.clientCount'), dataIndex: 'clientCount', key: 'clientCount', align: 'end' },
    {
      title: t('groups.scheduleRows'),
      key: 'rows',
      responsive: ['sm'],
      align: 'end',
      render: (_, g) => g.schedule?.length ?? 0,
    },
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.groups')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="group-new">
          {t('groups.new')}
        </Button>
      </div>
      <ListTable<Group>
        data-testid="groups-table"
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        onRow={(g) => ({ onDoubleClick: () => open(g.id) })}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('common.noData') }}
      />
    </>
  );
}
