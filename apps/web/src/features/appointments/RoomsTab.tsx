import { useEffect, useState } from 'react';
import { Button, Card, Empty, Form, Input, InputNumber, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  codeI18nKey,
  BOOKING_RESOURCE_KINDS,
  BookingResourceInput,
  BookingSettings,
  type BookingResource,
  type BookingSettings as Settings,
} from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { FormDrawer, FormRootError } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { MoneyInput } from '../../shared/MoneyInput';
import { ListTable } from '../../shared/CardList';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { useGroups } from './parts';
import { useBookingActions, useBookingSettings, useRooms } from './useAppointments';

/** A new room's values: a preparation room with a bath, 45 minutes, 15 of cleaning, every group, no fee. */
export const EMPTY_ROOM: BookingResourceInput = {
  name: '',
  kind: 'prepBath',
  serviceMinutes: 45,
  bufferMinutes: 15,
  groupIds: [],
  fee: 0,
  active: true,
};

/**
 * The club's bookable rooms (docs/appointments.md "Rooms"): kind, service and cleaning minutes,
 * the groups that may book, the fee (agorot, shown in the club's currency), active; a drawer to add
 * or change one; and the club's booking rules below.
 */
export function RoomsTab() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const rooms = useRooms();
  const groups = useGroups();
  const actions = useBookingActions();
  const [editing, setEditing] = useState<BookingResource | 'new' | null>(null);
  const groupName = (id: number) => groups.data?.find((g) => g.id === id)?.name ?? `#${id}`;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card
        title={t('bookingConsole.rooms.title')}
        extra={
          <Button type="primary" onClick={() => setEditing('new')} data-testid="room-new">
            {t('bookingConsole.rooms.new')}
          </Button>
        }
      >
        <QueryState loading={rooms.isPending} error={rooms.error} onRetry={() => void rooms.refetch()}>
          <ListTable<BookingResource>
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={rooms.data ?? []}
            locale={{ emptyText: <Empty description={t('bookingConsole.rooms.none')} /> }}
            data-testid="rooms-table"
            columns={[
              {
                title: t('bookingConsole.rooms.name'),
                dataIndex: 'name',
                render: (v: string) => <bdi dir="auto">{v}</bdi>,
              },
              {
                title: t('bookingConsole.rooms.kind'),
                dataIndex: 'kind',
                render: (k: string) => t(codeI18nKey('bookingKind', k)),
              },
              {
                title: t('bookingConsole.rooms.minutes'),
                render: (_: unknown, r: BookingResource) =>
                  t('bookingConsole.rooms.minutesValue', { service: r.serviceMinutes, buffer: r.bufferMinutes }),
              },
              {
                title: t('bookingConsole.rooms.groups'),
                dataIndex: 'groupIds',
                render: (ids: number[]) =>
                  ids.length === 0 ? t('bookingConsole.rooms.allGroups') : ids.map(groupName).join(', '),
              },
              {
                title: t('bookingConsole.rooms.fee'),
                dataIndex: 'fee',
                render: (v: number) => (v > 0 ? fmt.money(v) : t('bookingConsole.rooms.included')),
              },
              {
                title: t('bookingConsole.rooms.active'),
                dataIndex: 'active',
                render: (v: boolean) =>
                  v ? <Tag color="green">{t('common.yes')}</Tag> : <Tag>{t('bookingConsole.rooms.inactive')}</Tag>,
              },
              {
                key: 'actions',
                render: (_: unknown, r: BookingResource) => (
                  <Space>
                    <Button size="small" onClick={() => setEditing(r)} data-testid={`room-edit-${r.id}`}>
                      {t('common.edit')}
                    </Button>
                    <Popconfirm
                      title={t('bookingConsole.rooms.removeConfirm', { name: r.name })}
                      okText={t('common.delete')}
                      cancelText={t('common.cancel')}
                      onConfirm={() =>
                        actions.removeRoom.mutate(r.id, { onError: (e) => toast.error(errorText(t, e)) })
                      }
                    >
                      <Button size="small" danger>
                        {t('common.delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        </QueryState>
        <RoomDrawer room={editing === 'new' ? null : editing} open={editing != null} onClose={() => setEditing(null)} />
      </Card>
      <SettingsCard />
    </Space>
  );
}

/** Create or change a room, validated by the domain's schema (the server's errors on their fields). */
function RoomDrawer({ room, open, onClose }: { room: BookingResource | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { club } = useSessionData();
  const groups = useGroups();
  const actions = useBookingActions();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: BookingResourceInput,
    toInput: (v: BookingResourceInput) => ({ ...EMPTY_ROOM, ...v, fee: v.fee ?? 0 }),
    submit: (body) =>
      room ? actions.updateRoom.mutateAsync({ id: room.id, body }) : actions.createRoom.mutateAsync(body),
    onSaved: () => {
      toast.success(t('common.saved'));
      onClose();
    },
  });
  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.setFieldsValue(room ? { ...room } : EMPTY_ROOM);
  }, [open, room, form, clearRootError]);
  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      width={460}
      title={room ? room.name : t('bookingConsole.rooms.new')}
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="room-save"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        onFinishFailed={onFinishFailed}
        initialValues={EMPTY_ROOM}
      >
        <Form.Item name="name" label={t('bookingConsole.rooms.name')} required>
          <Input maxLength={60} data-testid="room-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('bookingConsole.rooms.kind')}>
          <Select
            data-testid="room-kind"
            options={BOOKING_RESOURCE_KINDS.map((k) => ({ value: k, label: t(codeI18nKey('bookingKind', k)) }))}
          />
        </Form.Item>
        <Form.Item name="serviceMinutes" label={t('bookingConsole.rooms.serviceMinutes')}>
          <InputNumber min={5} max={240} data-testid="room-service" />
        </Form.Item>
        <Form.Item name="bufferMinutes" label={t('bookingConsole.rooms.bufferMinutes')}>
          <InputNumber min={0} max={120} data-testid="room-buffer" />
        </Form.Item>
        <Form.Item
          name="groupIds"
          label={t('bookingConsole.rooms.groups')}
          extra={t('bookingConsole.rooms.groupsHint')}
        >
          <Select
            mode="multiple"
            allowClear
            loading={groups.isPending}
            data-testid="room-groups"
            showSearch={{ optionFilterProp: 'label' }}
            options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
        <Form.Item name="fee" label={t('bookingConsole.rooms.fee')} extra={t('bookingConsole.rooms.feeHint')}>
          <MoneyInput symbol={club.currencySymbol} data-testid="room-fee" />
        </Form.Item>
        <Form.Item name="active" label={t('bookingConsole.rooms.active')} valuePropName="checked">
          <Switch data-testid="room-active" />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}

/** The club's booking rules (docs/appointments.md): cutoff, offer hold, days ahead, retention, the gate. */
function SettingsCard() {
  const { t } = useTranslation();
  const toast = useToast();
  const settings = useBookingSettings();
  const groups = useGroups();
  const actions = useBookingActions();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: BookingSettings,
    submit: (body) => actions.saveSettings.mutateAsync(body),
    onSaved: () => toast.success(t('common.saved')),
  });
  useEffect(() => {
    if (!settings.data) return;
    clearRootError();
    form.setFieldsValue(settings.data);
  }, [settings.data, form, clearRootError]);
  const minutes = (name: keyof Settings, max: number, min = 0) => (
    <Form.Item name={name} label={t(`bookingConsole.settings.${name}`)}>
      <InputNumber min={min} max={max} data-testid={`setting-${name}`} />
    </Form.Item>
  );
  return (
    <Card
      title={t('bookingConsole.settings.title')}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="booking-settings-save">
          {t('common.save')}
        </Button>
      }
    >
      <QueryState loading={settings.isPending} error={settings.error} onRetry={() => void settings.refetch()}>
        <FormRootError message={rootError} />
        <Form
          form={form}
          layout="vertical"
          className="booking-settings"
          onFinish={(v) => void onFinish(v)}
          onFinishFailed={onFinishFailed}
        >
          {minutes('cancelCutoffMinutes', 10_080)}
          {minutes('offerHoldMinutes', 1440, 5)}
          {minutes('daysAhead', 60, 1)}
          {minutes('retentionDays', 3650, 1)}
          <Form.Item
            name="requiredGroupIds"
            label={t('bookingConsole.settings.requiredGroupIds')}
            extra={t('bookingConsole.settings.requiredHint')}
            className="wide"
          >
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={groups.isPending}
              options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            />
          </Form.Item>
          {minutes('gateBeforeMinutes', 240)}
          {minutes('gateAfterMinutes', 240)}
        </Form>
      </QueryState>
    </Card>
  );
}
