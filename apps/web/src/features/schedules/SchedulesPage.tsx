import { useMemo, useState } from 'react';
import { Button, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { GeneralScheduleInput, type ScheduleWithLinks } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useCan } from '../../platform/auth/useCan';
import { ApiError } from '../../platform/api/apiClient';
import { type GridColumn } from '../../shared/DataGrid';
import { ResourceListPage } from '../../shared/ResourceListPage';
import { errorText, validationText } from '../../shared/errors';
import { useGridState } from '../../shared/gridState';
import { useGroupList } from '../groups/useGroups';
import { ScheduleEditor } from '../groups/ScheduleEditor';
import { emptyRow, fromServerRows, toInputRows, type EditableRow } from '../groups/scheduleRows';
import type { ScheduleRow } from '@venue/domain';
import { useClientFormat } from '../clients/clientFormat';
import { useTerminalList } from '../terminals/useTerminals';
import { scheduleTimeText } from './scheduleTime';
import {
  useDeleteSchedule,
  useGeneralSchedules,
  useLinkSchedule,
  useSaveSchedule,
  useUnlinkSchedule,
} from './useSchedules';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * /management/app-schedules-list (seed 000 §2 "General schedules"): schedule
 * rows that belong to no group and apply to every group they are linked to
 * (below the group's own rows).
 */
export function SchedulesPage() {
  const { t } = useTranslation();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'groups' });
  const fmt = useClientFormat();
  const q = useGeneralSchedules();
  const [grid, setGrid] = useGridState('schedules');
  const [editing, setEditing] = useState<ScheduleWithLinks | 'new' | null>(null);

  const time = (fixed: number | null, halachic: number | null, offset: number) =>
    scheduleTimeText(t, fixed, halachic, offset);

  const columns = useMemo<GridColumn<ScheduleWithLinks>[]>(
    () => [
      {
        key: 'displayName',
        title: t('schedule.displayName'),
        dataIndex: 'displayName',
        alwaysVisible: true,
        render: (v: string) => <span dir="auto">{v || '—'}</span>,
      },
      {
        key: 'days',
        title: t('schedule.days'),
        dataIndex: 'days',
        render: (d: number[]) => d.map((x) => t(`daysShort.${x}`)).join(', '),
      },
      {
        key: 'from',
        title: t('schedule.from'),
        render: (_, r) => <span className="nowrap">{time(r.fromTime, r.fromHalachic, r.fromOffset)}</span>,
      },
      {
        key: 'to',
        title: t('schedule.to'),
        render: (_, r) => <span className="nowrap">{time(r.toTime, r.toHalachic, r.toOffset)}</span>,
      },
      {
        key: 'dates',
        title: t('schedule.dates'),
        defaultHidden: true,
        render: (_, r) =>
          r.fromDate || r.toDate ? (
            <>
              {fmt.date(r.fromDate)} – {fmt.date(r.toDate)}
            </>
          ) : (
            '—'
          ),
      },
      {
        key: 'entranceState',
        title: t('groups.entranceState'),
        dataIndex: 'entranceState',
        render: (v: number) => t(`entranceState.${v}`),
      },
      {
        key: 'price',
        title: t('schedule.price'),
        dataIndex: 'price',
        align: 'end',
        render: (v: number) => fmt.money(v),
      },
      {
        key: 'pricePerBeat',
        title: t('schedule.pricePerBeat'),
        dataIndex: 'pricePerBeat',
        align: 'end',
        defaultHidden: true,
        render: (v: number) => fmt.money(v),
      },
      {
        key: 'links',
        title: t('schedules.linkedGroups'),
        render: (_, r) => <ScheduleLinks schedule={r} canEdit={canEdit} />,
      },
      {
        key: 'actions',
        title: '',
        alwaysVisible: true,
        className: 'no-print',
        render: (_, r) => (canEdit ? <ScheduleRowActions schedule={r} onEdit={() => setEditing(r)} /> : null),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, fmt, canEdit],
  );

  return (
    <ResourceListPage<ScheduleWithLinks>
      title={t('nav.schedules')}
      create={canEdit && { label: t('schedules.new'), testId: 'schedule-new', onClick: () => setEditing('new') }}
      above={<Typography.Paragraph type="secondary">{t('schedules.help')}</Typography.Paragraph>}
      rows={q.data ?? []}
      query={q}
      emptyText={t('schedules.empty')}
      grid={{ gridId: 'schedules', columns, state: grid, onStateChange: setGrid, sortMode: 'page' }}
      dialogs={
        editing && <ScheduleModal schedule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      }
    />
  );
}

function ScheduleModal({ schedule, onClose }: { schedule: ScheduleWithLinks | null; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const { club } = useSessionData();
  const terminals = useTerminalList();
  const save = useSaveSchedule();
  const [rows, setRows] = useState<EditableRow[]>(() => {
    if (!schedule) return [emptyRow()];
    const { links: _links, groupId: _groupId, ...row } = schedule;
    return fromServerRows([row as unknown as ScheduleRow]);
  });
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onOk = async () => {
    const input = toInputRows(rows)[0];
    const parsed = GeneralScheduleInput.safeParse(input);
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const is of parsed.error.issues) errs[`0.${String(is.path[0] ?? '')}`] = validationText(t, is.message);
      setErrors(errs);
      return;
    }
    try {
      const { id: _id, ...body } = parsed.data;
      await save.mutateAsync({ id: schedule?.id ?? null, body });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.details.length) {
        setErrors(
          Object.fromEntries(e.details.map((d) => [`0.${d.path.split('.')[0]}`, validationText(t, d.message)])),
        );
      }
      message.error(errorText(t, e));
    }
  };

  return (
    <Modal
      open
      width={1100}
      title={schedule ? t('schedules.edit') : t('schedules.new')}
      onCancel={onClose}
      onOk={() => void onOk()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'schedule-save' } as never}
      destroyOnHidden
    >
      <ScheduleEditor
        single
        rows={rows}
        onChange={setRows}
        errors={errors}
        currencySymbol={club.currencySymbol}
        terminals={(terminals.data?.items ?? []).map((x) => ({ id: x.id, name: x.name }))}
      />
    </Modal>
  );
}

/** The groups a general schedule applies to: unlink by closing a tag, link by choosing a group. */
function ScheduleLinks({ schedule, canEdit }: { schedule: ScheduleWithLinks; canEdit: boolean }) {
  const { t } = useTranslation();
  const message = useToast();
  const groups = useGroupList();
  const link = useLinkSchedule();
  const unlink = useUnlinkSchedule();
  return (
    <Space wrap size={4} data-testid={`schedule-links-${schedule.id}`}>
      {schedule.links.map((l) => (
        <Tag
          key={l.id}
          closable={canEdit}
          onClose={(e) => {
            e.preventDefault();
            void unlink.mutateAsync(l.id).catch((err: unknown) => message.error(errorText(t, err)));
          }}
        >
          {l.groupName}
        </Tag>
      ))}
      {canEdit && (
        <Select<number>
          size="small"
          style={{ minInlineSize: 140 }}
          placeholder={t('schedules.linkGroup')}
          value={null as unknown as number}
          options={(groups.data?.items ?? [])
            .filter((g) => !schedule.links.some((l) => l.groupId === g.id))
            .map((g) => ({ value: g.id, label: g.name }))}
          onChange={(gid) =>
            void link
              .mutateAsync({ scheduleId: schedule.id, groupId: gid })
              .catch((err: unknown) => message.error(errorText(t, err)))
          }
          data-testid={`schedule-link-${schedule.id}`}
        />
      )}
    </Space>
  );
}

/** Edit and delete (confirmed) of one schedule. */
function ScheduleRowActions({ schedule, onEdit }: { schedule: ScheduleWithLinks; onEdit: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const del = useDeleteSchedule();
  return (
    <Space size={0}>
      <Button type="text" size="small" icon={<EditOutlined />} aria-label={t('common.edit')} onClick={onEdit} />
      <Popconfirm
        title={t('schedules.deleteConfirm')}
        okText={t('common.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => del.mutateAsync(schedule.id).catch((e: unknown) => message.error(errorText(t, e)))}
      >
        <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
      </Popconfirm>
    </Space>
  );
}
