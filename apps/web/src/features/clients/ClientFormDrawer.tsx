import { useEffect, useState } from 'react';
import {
  App,
  AutoComplete,
  Button,
  Col,
  DatePicker,
  Divider,
  Drawer,
  Form,
  Input,
  Row,
  Select,
  Space,
  Switch,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  CARD_TYPES,
  contract,
  ClientInput,
  ClientStatus,
  ClientType,
  isValidIsraeliId,
  type Client,
} from '@venue/domain';
import { api } from '../../app/api/apiClient';
import { useSessionData } from '../../app/auth/AuthProvider';
import { MoneyInput } from '../../shared/MoneyInput';
import { useDebounced } from '../../shared/useDebounced';
import { useQuery } from '@tanstack/react-query';
import { useCities } from '../settings/useSettings';
import { useDrawerSide } from '../../app/i18n/LocaleProvider';
import { ApiError } from '../../app/api/apiClient';
import { applyFieldIssues, errorText, serverFieldIssues, validationText, zodFieldIssues } from '../../shared/errors';
import { useViewport } from '../../shared/useMediaQuery';
import { useGroupList } from '../groups/useGroups';
import { useSaveClient } from './useClients';

interface ClientFormValues {
  firstName: string;
  lastName: string;
  personalId: string;
  phone: string;
  groupId: number | null;
  cardSerial: string;
  subscriptionStart: Dayjs | null;
  subscriptionEnd: Dayjs | null;
  licenseExpiry: Dayjs | null;
  status: number;
  clientType: number;
  city: string;
  address: string;
  cardType: number;
  specialPrice: number | null;
  parentId: number | null;
  clientCode: string;
  enrollPassword: string;
  allowEnrollFingerprint: boolean;
  allowEnrollCard: boolean;
  allowEnrollFace: boolean;
  messageToClient: string;
}

const DATE_FIELDS = ['subscriptionStart', 'subscriptionEnd', 'licenseExpiry'] as const;

function toFormValues(c: Client | null): ClientFormValues {
  const d = (s: string | null | undefined) => (s ? dayjs(s) : null);
  return {
    firstName: c?.firstName ?? '',
    lastName: c?.lastName ?? '',
    personalId: c?.personalId ?? '',
    phone: c?.phone ?? '',
    groupId: c?.groupId ?? null,
    cardSerial: c?.cardSerial ?? '',
    subscriptionStart: d(c?.subscriptionStart),
    subscriptionEnd: d(c?.subscriptionEnd),
    // Every active client holds a license (DESIGN §7): a new client starts with one year.
    licenseExpiry: c ? d(c.licenseExpiry) : dayjs().add(1, 'year'),
    status: c?.status ?? ClientStatus.Active,
    clientType: c?.clientType ?? ClientType.Regular,
    city: c?.city ?? '',
    address: c?.address ?? '',
    cardType: c?.cardType ?? 0,
    specialPrice: c?.specialPrice ?? null,
    parentId: c?.parentId ?? null,
    clientCode: c?.clientCode ?? '',
    enrollPassword: '',
    allowEnrollFingerprint: c?.allowEnrollFingerprint ?? true,
    allowEnrollCard: c?.allowEnrollCard ?? true,
    allowEnrollFace: c?.allowEnrollFace ?? true,
    messageToClient: c?.messageToClient ?? '',
  };
}

function toInput(v: ClientFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
    firstName: v.firstName ?? '',
    lastName: v.lastName ?? '',
    personalId: v.personalId ?? '',
    phone: v.phone ?? '',
    groupId: v.groupId ?? null,
    cardSerial: v.cardSerial ?? '',
    status: v.status,
    clientType: v.clientType,
    city: v.city ?? '',
    address: v.address ?? '',
    cardType: v.cardType ?? 0,
    specialPrice: v.specialPrice ?? null,
    parentId: v.parentId ?? null,
    clientCode: v.clientCode ?? '',
    allowEnrollFingerprint: v.allowEnrollFingerprint,
    allowEnrollCard: v.allowEnrollCard,
    allowEnrollFace: v.allowEnrollFace,
    messageToClient: v.messageToClient ?? '',
  };
  // The enrolment code is never shown back: it is sent only when typed.
  if (v.enrollPassword) out.enrollPassword = v.enrollPassword;
  for (const f of DATE_FIELDS) out[f] = v[f] ? v[f].format('YYYY-MM-DD') : null;
  return out;
}

/**
 * Create or edit a client (seed 001 §3 "Client"), validated with the shared
 * ClientInput schema; server field errors land on the same fields.
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
  const { message } = App.useApp();
  const [form] = Form.useForm<ClientFormValues>();
  const save = useSaveClient();
  const groups = useGroupList();
  const side = useDrawerSide('end');
  const phone = useViewport() === 'phone';
  const { club } = useSessionData();
  const cities = useCities(club.country);
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

  useEffect(() => {
    if (open) form.setFieldsValue(toFormValues(client));
  }, [open, client, form]);

  /** Shows every schema error at once, also when an inline rule already failed. */
  const onFinishFailed = () => {
    const parsed = ClientInput.safeParse(toInput(form.getFieldsValue(true) as ClientFormValues));
    if (!parsed.success) applyFieldIssues(form, zodFieldIssues(t, parsed.error));
  };

  const onFinish = async (values: ClientFormValues) => {
    const parsed = ClientInput.safeParse(toInput(values));
    if (!parsed.success) {
      applyFieldIssues(form, zodFieldIssues(t, parsed.error));
      return;
    }
    try {
      await save.mutateAsync({ id: client?.id ?? null, body: parsed.data });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError && applyFieldIssues(form, serverFieldIssues(t, e)))) {
        message.error(errorText(t, e));
      }
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement={side}
      size={phone ? '100%' : 520}
      title={client ? t('clients.edit', { name: client.name }) : t('clients.new')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="client-save">
            {t('common.save')}
          </Button>
        </Space>
      }
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
            <Form.Item name="groupId" label={t('clients.group')}>
              <Select
                allowClear
                loading={groups.isPending}
                placeholder={t('clients.noGroup')}
                options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
                data-testid="client-group"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="cardSerial" label={t('clients.cardSerial')}>
              <Input dir="ltr" data-testid="client-cardSerial" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="subscriptionStart" label={t('clients.subscriptionStart')}>
              <DatePicker style={{ inlineSize: '100%' }} format="YYYY-MM-DD" data-testid="client-subscriptionStart" />
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
              <DatePicker style={{ inlineSize: '100%' }} format="YYYY-MM-DD" data-testid="client-subscriptionEnd" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="licenseExpiry" label={t('clients.licenseExpiry')}>
              <DatePicker style={{ inlineSize: '100%' }} format="YYYY-MM-DD" data-testid="client-licenseExpiry" />
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
        </Row>
      </Form>
    </Drawer>
  );
}
