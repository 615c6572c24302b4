import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmployeePosition } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { ResourceListPage } from '../../shared/ResourceListPage';
import { useGridState } from '../../shared/gridState';
import { useClientFormat } from '../clients/clientFormat';
import { positionColumns } from './positionColumns';
import { PositionDrawer } from './PositionDrawer';
import { positionErrorText } from './positionErrors';
import { useDeletePosition, usePositionList } from './useEmployeePositions';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * /management/employee-position-list (seed 000 §2; seed 001 §3 "Employee
 * position"): the club's positions; adding, editing and deleting with the
 * positions permission (seed 001 §6), the messages of seed 001 §8.
 */
export function EmployeePositionsPage() {
  const { t } = useTranslation();
  const message = useToast();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'employeePositions' });
  const fmt = useClientFormat();
  const q = usePositionList();
  const del = useDeletePosition();
  const [grid, setGrid] = useGridState('employeePositions');
  const [editing, setEditing] = useState<EmployeePosition | null>(null);
  const [open, setOpen] = useState(false);

  const columns = useMemo(
    () =>
      positionColumns({
        t,
        money: fmt.money,
        canEdit,
        onEdit: (p) => edit(p),
        onDelete: (p) =>
          del
            .mutateAsync(p.id)
            .then(() => message.success(t('positions.deleted')))
            .catch((e: unknown) => message.error(positionErrorText(t, e))),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, fmt, canEdit],
  );

  function edit(p: EmployeePosition | null) {
    setEditing(p);
    setOpen(true);
  }

  return (
    <ResourceListPage<EmployeePosition>
      title={t('nav.employeePositions')}
      create={canEdit && { label: t('positions.new'), testId: 'position-new', onClick: () => edit(null) }}
      rows={q.data?.items ?? []}
      query={q}
      emptyText={t('positions.empty')}
      grid={{ gridId: 'employeePositions', columns, state: grid, onStateChange: setGrid, sortMode: 'page' }}
      dialogs={<PositionDrawer open={open} position={editing} onClose={() => setOpen(false)} />}
    />
  );
}
