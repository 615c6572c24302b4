import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Select, Space, Tag, Typography } from 'antd';
import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { AttendanceLog } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { DataGrid, DEFAULT_PAGE_SIZE } from '../../shared/DataGrid';
import { useGridState } from '../../shared/gridState';
import { attendanceColumns } from './attendanceColumns';
import { AttendanceDrawer, showTime } from './AttendanceDrawer';
import { EmployeesModal } from './EmployeesModal';
import { useAttendanceList, useEmployees, usePresentNow } from './useAttendance';

/**
 * /management/attendance (seed 000 §2, §6; seed 001 §3, §5): who is in now,
 * the records of the chosen days and employee, adding and correcting records
 * with "manage attendance" (seed 001 §6).
 */
export function AttendancePage() {
  const { t } = useTranslation();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'attendance' });
  const [days, setDays] = useState<[Dayjs, Dayjs]>([dayjs().startOf('day'), dayjs().startOf('day')]);
  const [clientId, setClientId] = useState<number | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [grid, setGrid] = useGridState('attendance');
  const filter = {
    from: days[0].format('YYYY-MM-DD'),
    to: days[1].format('YYYY-MM-DD'),
    ...(clientId ? { clientId } : {}),
    page,
    pageSize: grid.pageSize ?? DEFAULT_PAGE_SIZE,
  };
  const q = useAttendanceList(filter);
  const employees = useEmployees();
  const [editing, setEditing] = useState<AttendanceLog | null>(null);
  const [open, setOpen] = useState(false);
  const [staffOpen, setStaffOpen] = useState(false);

  const columns = useMemo(() => attendanceColumns({ t, canEdit, onEdit: (r) => edit(r) }), [t, canEdit]);

  function edit(r: AttendanceLog | null) {
    setEditing(r);
    setOpen(true);
  }

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.attendance')}</Typography.Title>
        <Space wrap>
          <Button icon={<TeamOutlined />} onClick={() => setStaffOpen(true)} data-testid="attendance-employees">
            {t('attendance.employees')}
          </Button>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => edit(null)} data-testid="attendance-new">
              {t('attendance.new')}
            </Button>
          )}
        </Space>
      </div>
      <PresentNow />
      <Space wrap style={{ marginBlockEnd: 12 }} className="no-print">
        <DatePicker.RangePicker
          value={days}
          allowClear={false}
          format="DD/MM/YYYY"
          onChange={(v) => {
            if (v?.[0] && v[1]) setDays([v[0], v[1]]);
            setPage(1);
          }}
          data-testid="attendance-days"
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          style={{ minInlineSize: 220 }}
          placeholder={t('attendance.allEmployees')}
          aria-label={t('attendance.employee')}
          value={clientId}
          onChange={(v?: number) => {
            setClientId(v);
            setPage(1);
          }}
          options={(employees.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
          data-testid="attendance-filter-employee"
        />
      </Space>
      <DataGrid<AttendanceLog>
        gridId="attendance"
        columns={columns}
        rows={q.data?.items ?? []}
        rowKey="id"
        state={grid}
        onStateChange={setGrid}
        total={q.data?.total ?? 0}
        page={page}
        onPageChange={setPage}
        loading={q.isFetching}
        error={q.error}
        onRetry={() => void q.refetch()}
        emptyText={t('attendance.empty')}
      />
      <AttendanceDrawer open={open} record={editing} onClose={() => setOpen(false)} />
      <EmployeesModal open={staffOpen} canEdit={canEdit} onClose={() => setStaffOpen(false)} />
    </>
  );
}

/** The open shifts: who is in now, since when. */
function PresentNow() {
  const { t } = useTranslation();
  const q = usePresentNow();
  const items = q.data?.items ?? [];
  return (
    <Card size="small" title={t('attendance.presentNow', { count: items.length })} style={{ marginBlockEnd: 12 }}>
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('attendance.nobodyIn')} />
      ) : (
        <Space wrap data-testid="attendance-present">
          {items.map((r) => (
            <Tag key={r.id} color="green">
              <span dir="auto">{r.clientName}</span> · <span className="ltr-value">{showTime(r.entryAt)}</span>
            </Tag>
          ))}
        </Space>
      )}
    </Card>
  );
}
