import { Button, Space, Tag, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { AttendanceLog } from '@venue/domain';
import type { GridColumn } from '../../shared/DataGrid';
import { showTime } from './AttendanceDrawer';

/** Minutes as H:MM, or a dash. */
export function hoursText(minutes: number | null): string {
  if (minutes == null) return '—';
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Columns of the attendance list (seed 001 §3 "Attendance record"); terminals and comment hidden on a phone. */
export function attendanceColumns({
  t,
  canEdit,
  onEdit,
}: {
  t: TFunction;
  canEdit: boolean;
  onEdit: (r: AttendanceLog) => void;
}): GridColumn<AttendanceLog>[] {
  const source = (s: AttendanceLog['entrySource']) =>
    s && s !== 'terminal' ? (
      <Tag color={s === 'automatic' ? 'orange' : 'blue'}>{t(`attendance.source.${s}`)}</Tag>
    ) : null;
  return [
    {
      key: 'clientName',
      title: t('attendance.employee'),
      dataIndex: 'clientName',
      alwaysVisible: true,
      render: (v: string) => <span dir="auto">{v}</span>,
    },
    {
      key: 'entryAt',
      title: t('attendance.entryAt'),
      dataIndex: 'entryAt',
      render: (v: string | null, r) => (
        <Space size={4}>
          <span className="ltr-value nowrap">{showTime(v)}</span>
          {source(r.entrySource)}
        </Space>
      ),
    },
    {
      key: 'entryTerminalName',
      title: t('attendance.entryTerminal'),
      dataIndex: 'entryTerminalName',
      responsive: ['md'],
    },
    {
      key: 'exitAt',
      title: t('attendance.exitAt'),
      dataIndex: 'exitAt',
      render: (v: string | null, r) => (
        <Space size={4}>
          <span className="ltr-value nowrap">{showTime(v)}</span>
          {source(r.exitSource)}
        </Space>
      ),
    },
    {
      key: 'exitTerminalName',
      title: t('attendance.exitTerminal'),
      dataIndex: 'exitTerminalName',
      responsive: ['md'],
    },
    {
      key: 'minutes',
      title: t('attendance.hours'),
      dataIndex: 'minutes',
      align: 'end',
      render: (v: number | null) => <span className="ltr-value">{hoursText(v)}</span>,
    },
    {
      key: 'comment',
      title: t('attendance.comment'),
      dataIndex: 'comment',
      ellipsis: true,
      responsive: ['md'],
      render: (v: string, r) => (
        <Space size={4}>
          {r.original && <Tag>{t('attendance.edited')}</Tag>}
          <Typography.Text dir="auto">{v}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'actions',
      title: '',
      alwaysVisible: true,
      className: 'no-print',
      render: (_, r) =>
        canEdit ? (
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('common.edit')}
            onClick={() => onEdit(r)}
            data-testid={`attendance-edit-${r.id}`}
          />
        ) : null,
    },
  ];
}
