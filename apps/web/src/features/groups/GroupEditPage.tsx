import { useEffect, useMemo, useState } from 'react';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { Button, Card, Col, ColorPicker, Form, Input, InputNumber, Row, Select, Space, Switch, Typography } from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ENTRANCE_STATES, GroupInput, SubscriptionEndType, type Group } from '@venue/domain';
import { MoneyInput } from '../../shared/MoneyInput';
import { LinkedSchedules } from './LinkedSchedules';
import { WeekPreviewPanel } from './WeekPreviewPanel';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useDirection } from '../../platform/i18n/LocaleProvider';
import { ApiError } from '../../platform/api/apiClient';
import { QueryState } from '../../shared/QueryState';
import { errorText, validationText } from '../../shared/errors';
import { useTerminalList } from '../terminals/useTerminals';
import { ScheduleEditor } from './ScheduleEditor';
import { fromServerRows, toInputRows, type EditableRow } from './scheduleRows';
import { useGroup, useSaveGroup } from './useGroups';
import { UnsavedChangesModal } from '../../shared/UnsavedChangesModal';
import { groupServerErrors, scheduleRowErrors } from './groupErrors';
import { useToast } from '../../shared/toast/ToastProvider';

type GroupFields = Omit<GroupInput, 'schedule'>;
const GROUP_KEYS = Object.keys(GroupInput.shape).filter((k) => k !== 'schedule') as (keyof GroupFields)[];

function defaultFields(): GroupFields {
  const parsed = GroupInput.parse({ name: 'x' });
  const { schedule: _s, ...rest } = parsed;
  return { ...rest, name: '' };
}

function fieldsOf(g: Group | undefined): GroupFields {
  const base = defaultFields();
  if (!g) return base;
  const out = { ...base } as Record<string, unknown>;
  for (const k of GROUP_KEYS) if (g[k] !== undefined) out[k] = g[k];
  return out as GroupFields;
}

/**
 * A group and its schedule (seed 001 §3, §4). Schedule edits are kept here
 * and saved only with the group; leaving with unsaved edits asks first.
 */
export function GroupEditPage() {
  const { groupId } = useParams();
  const id = groupId && groupId !== 'new' ? Number(groupId) : null;
  const query = useGroup(id);
  if (id != null && (query.isPending || query.isError)) {
    return (
      <QueryState loading={query.isPending} error={query.error} onRetry={() => void query.refetch()}>
        {null}
      </QueryState>
    );
  }
  return <GroupEditor key={id ?? 'new'} id={id} group={query.data} />;
}

function GroupEditor({ id, group }: { id: number | null; group: Group | undefined }) {
  const { t } = useTranslation();
  const message = useToast();
  const navigate = useNavigate();
  const rtl = useDirection() === 'rtl';
  const { club } = useSessionData();
  const terminals = useTerminalList();
  const save = useSaveGroup();
  const [form] = Form.useForm<GroupFields>();
  const initialFields = useMemo(() => fieldsOf(group), [group]);
  const initialRows = useMemo(() => fromServerRows(group?.schedule ?? []), [group]);
  const [rows, setRows] = useState<EditableRow[]>(initialRows);
  const [fields, setFields] = useState<GroupFields>(initialFields);
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);

  const dirty =
    !saved &&
    (JSON.stringify(toInputRows(rows)) !== JSON.stringify(toInputRows(initialRows)) ||
      JSON.stringify(fields) !== JSON.stringify(initialFields));

  // "Changes not saved" (seed 001 §8) when leaving inside the console or closing the tab.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  useEffect(() => {
    if (saved && blocker.state !== 'blocked') void navigate('/management/app-groups-list');
  }, [saved, blocker.state, navigate]);

  const onSave = async () => {
    let values: GroupFields;
    try {
      values = { ...fields, ...(await form.validateFields()) };
    } catch {
      return;
    }
    const body = { ...values, schedule: toInputRows(rows) };
    const errs = scheduleRowErrors(t, rows);
    const parsed = GroupInput.safeParse(body);
    if (!parsed.success) {
      const fieldIssues = parsed.error.issues.filter((is) => is.path[0] !== 'schedule');
      if (fieldIssues.length) {
        form.setFields(
          fieldIssues.map((is) => ({ name: is.path[0] as keyof GroupFields, errors: [validationText(t, is.message)] })),
        );
      }
    }
    setRowErrors(errs);
    if (!parsed.success || Object.keys(errs).length) {
      message.error(t('validation.fixErrors'));
      return;
    }
    try {
      await save.mutateAsync({ id, body: parsed.data });
      message.success(t('common.saved'));
      setSaved(true);
    } catch (e) {
      if (e instanceof ApiError && e.details.length) {
        const { rowErrors: se, fields: fe } = groupServerErrors(t, e.details);
        if (fe.length) form.setFields(fe.map((f) => ({ name: f.name as keyof GroupFields, errors: f.errors })));
        setRowErrors(se);
      }
      message.error(errorText(t, e));
    }
  };

  const Back = rtl ? ArrowRightOutlined : ArrowLeftOutlined;

  return (
    <>
      <div className="page-header">
        <Space>
          <Button
            type="text"
            icon={<Back />}
            aria-label={t('common.back')}
            onClick={() => void navigate('/management/app-groups-list')}
          />
          <Typography.Title level={2}>{id == null ? t('groups.new') : group?.name}</Typography.Title>
        </Space>
        <Space>
          {dirty && <Typography.Text type="warning">{t('common.unsaved')}</Typography.Text>}
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            onClick={() => void onSave()}
            data-testid="group-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      </div>
      <Card title={t('groups.details')} style={{ marginBlockEnd: 16 }}>
        <Form
          form={form}
          layout="vertical"
          initialValues={initialFields}
          onValuesChange={(_, all) => setFields((f) => ({ ...f, ...all }))}
        >
          <GroupDetailsFields currencySymbol={club.currencySymbol} />
        </Form>
      </Card>
      <Card title={t('groups.schedule')}>
        <ScheduleEditor
          rows={rows}
          onChange={setRows}
          errors={rowErrors}
          currencySymbol={club.currencySymbol}
          terminals={(terminals.data?.items ?? []).map((x) => ({ id: x.id, name: x.name }))}
        />
      </Card>
      {id != null && <LinkedSchedules groupId={id} />}
      {id != null && <WeekPreviewPanel groupId={id} dirty={dirty} />}
      <UnsavedChangesModal blocker={blocker} />
    </>
  );
}

/** The group's own settings (seed 001 §3 "Group"): entrance, limits, payments (agorot), subscription. */
function GroupDetailsFields({ currencySymbol }: { currencySymbol: string }) {
  const { t } = useTranslation();
  return (
    <Row gutter={16}>
      <Col xs={24} md={12} lg={8}>
        <Form.Item
          name="name"
          label={t('groups.name')}
          rules={[{ required: true, message: validationText(t, 'required') }]}
        >
          <Input data-testid="group-name" />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item
          name="color"
          label={t('groups.color')}
          getValueFromEvent={(c: { toHexString: () => string }) => c.toHexString()}
        >
          <ColorPicker disabledAlpha format="hex" showText />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="allowEntrance" label={t('groups.allowEntrance')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={24} md={12} lg={8}>
        <Form.Item name="entranceState" label={t('groups.entranceState')}>
          <Select options={ENTRANCE_STATES.map((s) => ({ value: s, label: t(`entranceState.${s}`) }))} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="delayBetweenEntriesMinutes" label={t('groups.delayBetweenEntries')}>
          <InputNumber min={0} style={{ inlineSize: '100%' }} suffix={t('common.minutesShort')} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="maxEntriesPerDay" label={t('groups.maxEntriesPerDay')} tooltip={t('groups.zeroUnlimited')}>
          <InputNumber min={0} style={{ inlineSize: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="newDayStartHour" label={t('groups.newDayStartHour')}>
          <Select
            options={Array.from({ length: 24 }, (_, h) => ({
              value: h,
              label: `${String(h).padStart(2, '0')}:00`,
            }))}
          />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="useHalachicTimes" label={t('groups.useHalachicTimes')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="allowPayment" label={t('groups.allowPayment')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="allowPurchases" label={t('groups.allowPurchases')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="bonus" label={t('groups.bonus')} tooltip={t('groups.bonusHint')}>
          <MoneyInput symbol={currencySymbol} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="minChargeAmount" label={t('groups.minChargeAmount')}>
          <MoneyInput symbol={currencySymbol} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="maxChargeAmount" label={t('groups.maxChargeAmount')} tooltip={t('groups.zeroUnlimited')}>
          <MoneyInput symbol={currencySymbol} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12} lg={8}>
        <Form.Item name="subscriptionEndType" label={t('groups.subscriptionEndType')}>
          <Select
            options={Object.entries(SubscriptionEndType).map(([k, v]) => ({
              value: v,
              label: t(`subscriptionEndType.${k}`),
            }))}
          />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="daysToExtend" label={t('groups.daysToExtend')}>
          <InputNumber min={0} style={{ inlineSize: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item
          name="maxEntriesPerDayPerSubscriber"
          label={t('groups.maxEntriesPerDayPerSubscriber')}
          tooltip={t('groups.zeroUnlimited')}
        >
          <InputNumber min={0} style={{ inlineSize: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6} lg={4}>
        <Form.Item name="priority" label={t('groups.priority')}>
          <InputNumber style={{ inlineSize: '100%' }} />
        </Form.Item>
      </Col>
    </Row>
  );
}
