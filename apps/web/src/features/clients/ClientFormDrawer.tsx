import { useEffect, useState } from 'react';
import { AutoComplete, Col, DatePicker, Divider, Form, Input, Select, Switch, Row, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  CARD_TYPES,
  contract,
  ClientInput,
  ClientStatus,
  ClientType,
  isValidIsraeliId,
  type Client,
} from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { validationText } from '../../shared/errors';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { MoneyInput } from '../../shared/MoneyInput';
import { useDebounced } from '../../shared/useDebounced';
import { useGroupList, useGroupsStateNow } from '../groups/useGroups';
import { useCities } from '../settings/useSettings';
import { toFormValues, toInput, type ClientFormValues } from './clientForm';
import { useSaveClient } from './useClients';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * Create or edit a client (seed 001 §3 "Client"), validated with the shared
 * ClientInput schema; server field errors land on the same fields. A new
 * client's page opens once it is saved.
 */
export function ClientFormDrawer({
  open,
  client,
  onClose,
}: {
  open: boolean;
  client: Client | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSaveClient();
  const navigate = useNavigate();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: ClientInput,
    toInput: (v: ClientFormValues) => toInput(v),
    submit: (body) => save.mutateAsync({ id: client?.id ?? null, body }),
    onSaved: (saved) => {
      message.success(t('common.saved'));
      onClose();
      // A new client opens at once (issue 19): the user sees what was created and goes on from there.
      if (!client) void navigate(`/management/clients/${saved.id}`);
    },
  });

  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.setFieldsValue(toFormValues(client));
  }, [open, client, form, clearRootError]);

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      width={520}
      title={client ? t('clients.edit', { name: client.name }) : t('clients.new')}
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="client-save"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        onFinishFailed={onFinishFailed}
        initialValues={toFormValues(client)}
        data-testid="client-form"
      >
        <Row gutter={12}>
          <ClientPersonFields client={client} />
          <ClientMembershipFields />
          <ClientParentField open={open} client={client} />
          <ClientEnrolmentFields client={client} />
        </Row>
      </Form>
    </FormDrawer>
  );
}

/** Name, Israeli ID (check digit on blur), phone, group and card. */
function ClientPersonFields({ client }: { client: Client | null }) {
  const { t } = useTranslation();
  return (
    <>
      <Col xs={24} sm={12}>
        <Form.Item name="firstName" label={t('clients.firstName')} required>
          <Input data-testid="client-firstName" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="lastName" label={t('clients.lastName')}>
          <Input data-testid="client-lastName" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item
          name="personalId"
          label={t('clients.personalId')}
          validateTrigger="onBlur"
          rules={[
            {
              validator: (_, v: string | undefined) =>
                !v || isValidIsraeliId(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(validationText(t, 'invalidPersonalId'))),
            },
          ]}
        >
          <Input inputMode="numeric" dir="ltr" maxLength={9} data-testid="client-personalId" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="phone" label={t('clients.phone')}>
          <Input inputMode="tel" dir="ltr" data-testid="client-phone" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <ClientGroupField client={client} />
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="cardSerial" label={t('clients.cardSerial')}>
          <Input dir="ltr" data-testid="client-cardSerial" />
        </Form.Item>
      </Col>
    </>
  );
}

/**
 * The group picker: a group that is closed right now by its schedule (GET /Group/StateNow, the
 * gate's rule) is marked in the list and under the field, so a client is not put in a group
 * that will not let them in now without the user knowing. When the list cannot be read (it
 * failed, or the user may not view groups) the client's own group still shows by its name, never
 * as a bare number (issue 35), and the picker is read-only.
 */
function ClientGroupField({ client }: { client: Client | null }) {
  const { t } = useTranslation();
  const groups = useGroupList();
  const states = useGroupsStateNow();
  const list = groups.data?.items ?? [];
  const own =
    client?.groupId != null && client.groupName != null && !list.some((g) => g.id === client.groupId)
      ? [{ id: client.groupId, name: client.groupName }]
      : [];
  const unreadable = !groups.allowed || groups.isError;
  const closed = new Set((states.data?.items ?? []).filter((s) => !s.open).map((s) => s.groupId));
  const chosen = Form.useWatch<number | null | undefined>('groupId');
  const closedTag = (
    <Tag color="orange" style={{ marginInlineStart: 6 }} data-testid="group-closed-now">
      {t('clients.groupClosedNow')}
    </Tag>
  );
  return (
    <Form.Item
      name="groupId"
      label={t('clients.group')}
      extra={chosen != null && closed.has(chosen) ? t('clients.groupClosedNowHint') : undefined}
    >
      <Select
        allowClear
        showSearch
        optionFilterProp="name"
        loading={groups.allowed && groups.isLoading}
        disabled={unreadable}
        placeholder={t('clients.noGroup')}
        options={[...list, ...own].map((g) => ({
          value: g.id,
          name: g.name,
          // The option's title stays the group's name when the label carries the closed-now tag.
          title: g.name,
          label: (
            <span>
              {g.name}
              {closed.has(g.id) && closedTag}
            </span>
          ),
        }))}
        data-testid="client-group"
      />
    </Form.Item>
  );
}

/** Subscription and license dates (end not before start), status, type, address, card type, special price (agorot). */
function ClientMembershipFields() {
  const { t } = useTranslation();
  const { club } = useSessionData();
  const cities = useCities(club.country);
  return (
    <>
      <Col xs={24} sm={12}>
        <Form.Item name="subscriptionStart" label={t('clients.subscriptionStart')}>
          <DatePicker style={{ inlineSize: '100%' }} data-testid="client-subscriptionStart" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item
          name="subscriptionEnd"
          label={t('clients.subscriptionEnd')}
          dependencies={['subscriptionStart']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, v: Dayjs | null) => {
                const start = getFieldValue('subscriptionStart') as Dayjs | null;
                return !v || !start || !v.isBefore(start, 'day')
                  ? Promise.resolve()
                  : Promise.reject(new Error(validationText(t, 'dateRangeOrder')));
              },
            }),
          ]}
        >
          <DatePicker style={{ inlineSize: '100%' }} data-testid="client-subscriptionEnd" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="licenseExpiry" label={t('clients.licenseExpiry')}>
          <DatePicker style={{ inlineSize: '100%' }} data-testid="client-licenseExpiry" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="status" label={t('clients.status')}>
          <Select
            data-testid="client-status"
            options={Object.entries(ClientStatus).map(([k, v]) => ({ value: v, label: t(`clientStatus.${k}`) }))}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="clientType" label={t('clients.clientType')}>
          <Select
            data-testid="client-clientType"
            options={Object.entries(ClientType).map(([k, v]) => ({ value: v, label: t(`clientType.${k}`) }))}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="city" label={t('clients.city')}>
          <AutoComplete
            options={(cities.data ?? []).map((c) => ({ value: c }))}
            filterOption={(input, o) => String((o as { value?: string } | undefined)?.value ?? '').includes(input)}
            data-testid="client-city"
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="address" label={t('clients.address')}>
          <Input data-testid="client-address" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="cardType" label={t('clients.cardType')}>
          <Select
            options={Object.entries(CARD_TYPES).map(([k, v]) => ({ value: v, label: t(`cardType.${k}`) }))}
            data-testid="client-cardType"
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="specialPrice" label={t('clients.specialPrice')} tooltip={t('clients.specialPriceHint')}>
          <MoneyInput nullable symbol={club.currencySymbol} data-testid="client-specialPrice" />
        </Form.Item>
      </Col>
    </>
  );
}

/** The paying parent, searched by name or number (20 at a time); never the client itself. */
function ClientParentField({ open, client }: { open: boolean; client: Client | null }) {
  const { t } = useTranslation();
  const [parentSearch, setParentSearch] = useState('');
  const parentTerm = useDebounced(parentSearch.trim(), 300);
  const parents = useQuery({
    queryKey: ['clients', 'parent-search', parentTerm],
    queryFn: () => api.call(contract.clients.list, { query: { search: parentTerm, pageSize: 20 } }),
    enabled: open,
  });
  const parentOptions = (parents.data?.items ?? [])
    .filter((c) => c.id !== client?.id)
    .map((c) => ({ value: c.id, label: `${c.name} (${c.number})` }));
  if (client?.parentId && !parentOptions.some((o) => o.value === client.parentId)) {
    parentOptions.unshift({ value: client.parentId, label: `#${client.parentId}` });
  }
  return (
    <Col xs={24} sm={12}>
      <Form.Item name="parentId" label={t('clients.parent')} tooltip={t('clients.parentHint')}>
        <Select
          allowClear
          showSearch={{ filterOption: false, onSearch: setParentSearch }}
          loading={parents.isFetching}
          placeholder={t('clients.noParent')}
          options={parentOptions}
          data-testid="client-parent"
        />
      </Form.Item>
    </Col>
  );
}

/** Client code, the enrolment code (never shown back), allowed enrolment means, the message to the client. */
function ClientEnrolmentFields({ client }: { client: Client | null }) {
  const { t } = useTranslation();
  return (
    <>
      <Col xs={24} sm={12}>
        <Form.Item name="clientCode" label={t('clients.clientCode')}>
          <Input dir="ltr" data-testid="client-clientCode" />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Divider titlePlacement="start">{t('clients.enrollment')}</Divider>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item
          name="enrollPassword"
          label={t('clients.enrollPassword')}
          extra={client?.hasEnrollPassword ? t('clients.enrollPasswordSet') : t('clients.enrollPasswordHint')}
        >
          <Input.Password dir="ltr" autoComplete="new-password" data-testid="client-enrollPassword" />
        </Form.Item>
      </Col>
      <Col xs={8} sm={4}>
        <Form.Item name="allowEnrollFingerprint" label={t('clients.allowFingerprint')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={8} sm={4}>
        <Form.Item name="allowEnrollCard" label={t('clients.allowCard')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={8} sm={4}>
        <Form.Item name="allowEnrollFace" label={t('clients.allowFace')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name="messageToClient" label={t('clients.messageToClient')}>
          <Input.TextArea rows={2} maxLength={200} showCount data-testid="client-messageToClient" />
        </Form.Item>
      </Col>
    </>
  );
}
