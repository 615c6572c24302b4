import { Modal, Select, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ClientType, type AttendanceEmployee } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { usePositionList } from '../employee-positions/useEmployeePositions';
import { useEmployees, useSetEmployeePosition } from './useAttendance';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * The club's employees (Manager and Technician clients) with their positions;
 * with "manage attendance" the position is chosen here (its hourly rate pays
 * the payroll report, docs/attendance.md).
 */
export function EmployeesModal({ open, canEdit, onClose }: { open: boolean; canEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const employees = useEmployees();
  const positions = usePositionList();
  const setPosition = useSetEmployeePosition();
  const options = (positions.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }));
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('attendance.employees')} width={560}>
      <Table<AttendanceEmployee>
        size="small"
        rowKey="id"
        pagination={false}
        loading={employees.isPending}
        dataSource={employees.data ?? []}
        locale={{ emptyText: t('attendance.noEmployees') }}
        columns={[
          {
            key: 'name',
            title: t('attendance.employee'),
            render: (_, e) => (
              <span dir="auto">
                {e.name}{' '}
                <Tag>{t(e.clientType === ClientType.Technician ? 'clientType.Technician' : 'clientType.Manager')}</Tag>
              </span>
            ),
          },
          {
            key: 'position',
            title: t('attendance.position'),
            render: (_, e) => (
              <Select
                allowClear
                aria-label={t('attendance.positionOf', { name: e.name })}
                disabled={!canEdit}
                style={{ minInlineSize: 180 }}
                placeholder={t('users.noPosition')}
                value={e.employeePositionId ?? undefined}
                options={options}
                onChange={(v?: number) =>
                  setPosition
                    .mutateAsync({ clientId: e.id, employeePositionId: v ?? null })
                    .then(() => message.success(t('common.saved')))
                    .catch((err: unknown) => message.error(errorText(t, err)))
                }
                data-testid={`employee-position-${e.id}`}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}
