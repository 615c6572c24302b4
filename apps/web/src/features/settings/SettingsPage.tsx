import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import {
  Alert,
  App,
  AutoComplete,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Tooltip,
  Typography,
} from 'antd';
import { LockOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  COUNTRIES,
  CURRENCY_SYMBOL,
  ClubPatch,
  FeeType,
  OPERATOR_ONLY_SETTINGS,
  UserLevel,
  type Club,
} from '@venue/domain';
import { ApiError } from '../../app/api/apiClient';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useCan } from '../../app/auth/useCan';
import { QueryState } from '../../shared/QueryState';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText, validationText } from '../../shared/errors';
import { useGroupList } from '../groups/useGroups';
import { useCities, useClub, useUpdateClub } from './useSettings';

type Values = Record<string, unknown>;

type Kind =
  | 'text'
  | 'email'
  | 'switch'
  | 'int'
  | 'money'
  | 'country'
  | 'city'
  | 'currency'
  | 'language'
  | 'languages'
  | 'fee'
  | 'feeValue'
  | 'group';

interface Field {
  key: string;
  kind: Kind;
  /** i18n key suffix of the unit shown after a number (settings.unit_<x>). */
  unit?: string;
  /** For a fee value: its fee type field. */
  feeTypeKey?: string;
  span?: number;
}

/** The settings screen as data: one entry per section of seed 000 §3 / seed 001 §3. */
const SECTIONS: { key: string; fields: Field[] }[] = [
  {
    key: 'general',
    fields: [
      { key: 'name', kind: 'text' },
      { key: 'invoiceEmail', kind: 'email' },
      { key: 'companyNumber', kind: 'text' },
      { key: 'licancesAmount', kind: 'int' },
      { key: 'licenseYearlyPrice', kind: 'money' },
    ],
  },
  {
    key: 'address',
    fields: [
      { key: 'country', kind: 'country' },
      { key: 'addressCity', kind: 'city' },
      { key: 'addressStreet', kind: 'text' },
      { key: 'addressHouseNumber', kind: 'text' },
    ],
  },
  {
    key: 'currencyLanguage',
    fields: [
      { key: 'currency', kind: 'currency' },
      { key: 'mainLanguage', kind: 'language' },
      { key: 'languages', kind: 'languages' },
    ],
  },
  {
    key: 'fees',
    fields: [
      { key: 'creditChargeFeeType', kind: 'fee' },
      { key: 'creditChargeFeeValue', kind: 'feeValue', feeTypeKey: 'creditChargeFeeType' },
      { key: 'entranceCreditFeeType', kind: 'fee' },
      { key: 'entranceCreditFeeValue', kind: 'feeValue', feeTypeKey: 'entranceCreditFeeType' },
    ],
  },
  {
    key: 'cash',
    fields: [
      { key: 'maxCashOverpayment', kind: 'money' },
      { key: 'minChargeAmount', kind: 'money' },
      { key: 'maxChargeAmount', kind: 'money' },
    ],
  },
  {
    key: 'loadLimit',
    fields: [
      { key: 'entrancesLimitPeople', kind: 'int', unit: 'people' },
      { key: 'entrancesLimitMinutes', kind: 'int', unit: 'minutes' },
    ],
  },
  {
    key: 'selfRegister',
    fields: [
      { key: 'selfRegisterDefaultGroupId', kind: 'group' },
      { key: 'selfRegisterNoIdRequired', kind: 'switch' },
      { key: 'isLicenseRequiredInSelfRegister', kind: 'switch' },
      { key: 'allowEnrollmentFingerprintInSelfRegister', kind: 'switch' },
      { key: 'allowEnrollmentCardInSelfRegister', kind: 'switch' },
      { key: 'allowEnrollmentFaceInSelfRegister', kind: 'switch' },
    ],
  },
  {
    key: 'autoRenew',
    fields: [
      { key: 'autoRenewDaysBefore', kind: 'int', unit: 'days' },
      { key: 'autoRenewDaysAfter', kind: 'int', unit: 'days' },
    ],
  },
  {
    key: 'quickExit',
    fields: [
      { key: 'isQuickExitEnabled', kind: 'switch' },
      { key: 'quickExitMinMinutes', kind: 'int', unit: 'minutes' },
      { key: 'quickExitMaxMinutes', kind: 'int', unit: 'minutes' },
      { key: 'quickExitSubscriptionReward', kind: 'money' },
      { key: 'quickExitTransactionReward', kind: 'money' },
    ],
  },
  {
    key: 'features',
    fields: [
      { key: 'isKalaSubscriptionEnabled', kind: 'switch' },
      { key: 'subscriptionTvilotKalaQty', kind: 'int' },
      { key: 'isEmployeeAttendanceEnabled', kind: 'switch' },
      { key: 'isEmployeeBiometricAuthEnabled', kind: 'switch' },
      { key: 'isEmployeeEnrollmentEnabled', kind: 'switch' },
      { key: 'isUpsellEnabled', kind: 'switch' },
      { key: 'isIncidentReportEnabled', kind: 'switch' },
      { key: 'isSaferPaymentsEnabled', kind: 'switch' },
      { key: 'isLimitedResetCashLevelsReportEnabled', kind: 'switch' },
    ],
  },
];

const ALL_FIELDS = SECTIONS.flatMap((s) => s.fields);

function valuesOf(club: Club): Values {
  const c = club as unknown as Values;
  return Object.fromEntries(ALL_FIELDS.map((f) => [f.key, c[f.key]]));
}

/** The changed settings only (seed 001 §8 "No changes made" when there are none). */
export function changedSettings(initial: Values, current: Values): Values {
  const out: Values = {};
  for (const f of ALL_FIELDS) {
    if (!(f.key in current)) continue;
    if (JSON.stringify(initial[f.key] ?? null) !== JSON.stringify(current[f.key] ?? null)) out[f.key] = current[f.key];
  }
  return out;
}

/** /management/app-settings: every club setting in sections; operator-only ones read-only for club staff. */
export function SettingsPage() {
  const q = useClub();
  if (q.isPending || q.isError)
    return (
      <QueryState loading={q.isPending} error={q.error} onRetry={() => void q.refetch()}>
        {null}
      </QueryState>
    );
  return <SettingsForm key={q.dataUpdatedAt} club={q.data} />;
}

function SettingsForm({ club }: { club: Club }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user } = useSessionData();
  const operator = user.level === UserLevel.SuperUser;
  const allowed = useCan();
  const canEdit = allowed({ edit: 'settings' });
  const [form] = Form.useForm<Values>();
  const initial = useMemo(() => valuesOf(club), [club]);
  const [current, setCurrent] = useState<Values>(initial);
  const update = useUpdateClub();
  const groups = useGroupList();
  const country = (current.country as string | undefined) ?? club.country;
  const cities = useCities(country);
  const dirty = Object.keys(changedSettings(initial, current)).length > 0;

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  const locked = (key: string) =>
    !canEdit || (!operator && (OPERATOR_ONLY_SETTINGS as readonly string[]).includes(key));

  const onSave = async () => {
    const changes = changedSettings(initial, form.getFieldsValue(true) as Values);
    if (Object.keys(changes).length === 0) {
      message.info(t('settings.noChanges'));
      return;
    }
    const parsed = ClubPatch.safeParse(changes);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((is) => ({ name: String(is.path[0]), errors: [validationText(t, is.message)] })),
      );
      message.error(t('validation.fixErrors'));
      return;
    }
    try {
      await update.mutateAsync({ id: club.id, body: parsed.data });
      message.success(t('common.saved'));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'CONTACT_MANAGER') message.error(t('settings.contactManager'));
      else {
        if (e instanceof ApiError)
          form.setFields(
            e.details
              .filter((d) => d.path)
              .map((d) => ({ name: d.path.split('.')[0], errors: [validationText(t, d.message)] })),
          );
        message.error(errorText(t, e));
      }
    }
  };

  const input = (f: Field): ReactNode => {
    const disabled = locked(f.key);
    const unit = f.unit ? t(`settings.unit_${f.unit}`) : undefined;
    switch (f.kind) {
      case 'switch':
        return <Switch disabled={disabled} data-testid={`setting-${f.key}`} />;
      case 'int':
        return (
          <InputNumber
            min={0}
            disabled={disabled}
            suffix={unit}
            style={{ inlineSize: '100%' }}
            data-testid={`setting-${f.key}`}
          />
        );
      case 'money':
        return <MoneyInput disabled={disabled} symbol={club.currencySymbol} data-testid={`setting-${f.key}`} />;
      case 'email':
        return <Input type="email" dir="ltr" disabled={disabled} data-testid={`setting-${f.key}`} />;
      case 'country':
        return (
          <Select
            disabled={disabled}
            options={COUNTRIES.map((c) => ({ value: c, label: t(`country.${c}`) }))}
            onChange={() => form.setFieldValue('addressCity', '')}
            data-testid={`setting-${f.key}`}
          />
        );
      case 'city':
        return (
          <AutoComplete
            disabled={disabled}
            options={(cities.data ?? []).map((c) => ({ value: c }))}
            filterOption={(inp, o) => String((o as { value?: string } | undefined)?.value ?? '').includes(inp)}
            data-testid={`setting-${f.key}`}
          />
        );
      case 'currency':
        return (
          <Select
            disabled={disabled}
            options={[376, 840, 978, 826, 348].map((c) => ({
              value: c,
              label: `${CURRENCY_SYMBOL[c]} ${t(`currency.${c}`)}`,
            }))}
          />
        );
      case 'language':
        return (
          <Select
            disabled={disabled}
            options={[
              { value: 'he', label: t('users.lang_he') },
              { value: 'en', label: t('users.lang_en') },
            ]}
          />
        );
      case 'languages':
        return (
          <Select
            mode="multiple"
            disabled={disabled}
            options={[
              { value: 'he', label: t('users.lang_he') },
              { value: 'en', label: t('users.lang_en') },
            ]}
          />
        );
      case 'fee':
        return (
          <Select
            disabled={disabled}
            options={Object.entries(FeeType).map(([k, v]) => ({ value: v, label: t(`feeType.${k}`) }))}
          />
        );
      case 'feeValue': {
        const type = current[f.feeTypeKey!] as number;
        if (type === FeeType.Fixed) return <MoneyInput disabled={disabled} symbol={club.currencySymbol} />;
        // Percentage in hundredths of a percent (250 = 2.5%), shown as a percent.
        return (
          <InputNumber<number>
            disabled={disabled || type === FeeType.NoFee}
            min={0}
            max={100}
            step={0.1}
            suffix="%"
            style={{ inlineSize: '100%' }}
            formatter={(v) => (v == null ? '' : String(v))}
            parser={(v) => Number(v ?? 0)}
          />
        );
      }
      case 'group':
        return (
          <Select
            allowClear
            disabled={disabled}
            placeholder={t('clients.noGroup')}
            options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        );
      default:
        return <Input disabled={disabled} data-testid={`setting-${f.key}`} />;
    }
  };

  /** A percentage fee is stored in hundredths of a percent; the input shows percent. */
  const feeProps = (f: Field) =>
    f.kind === 'feeValue' && (current[f.feeTypeKey!] as number) !== FeeType.Fixed
      ? {
          getValueProps: (v: number | undefined) => ({ value: v == null ? null : v / 100 }),
          normalize: (v: number | null) => Math.round((v ?? 0) * 100),
        }
      : {};

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.settings')}</Typography.Title>
        <Space wrap>
          {dirty && (
            <Typography.Text type="warning" data-testid="settings-dirty">
              {t('common.unsaved')}
            </Typography.Text>
          )}
          {canEdit && (
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={update.isPending}
              onClick={() => void onSave()}
              data-testid="settings-save"
            >
              {t('common.save')}
            </Button>
          )}
        </Space>
      </div>
      {!operator && (
        <Alert
          type="info"
          showIcon
          icon={<LockOutlined />}
          style={{ marginBlockEnd: 16 }}
          title={t('settings.operatorOnlyNote')}
          data-testid="settings-operator-note"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onValuesChange={(_, all) => setCurrent((c) => ({ ...c, ...all }))}
        disabled={!canEdit}
      >
        <Row gutter={[16, 16]}>
          {SECTIONS.map((s) => (
            <Col xs={24} xl={12} key={s.key}>
              <Card title={t(`settings.section_${s.key}`)} size="small" data-testid={`settings-section-${s.key}`}>
                <Row gutter={12}>
                  {s.fields.map((f) => (
                    <Col xs={24} sm={f.kind === 'switch' ? 12 : 12} key={f.key}>
                      <Form.Item
                        name={f.key}
                        label={
                          locked(f.key) && canEdit ? (
                            <Tooltip title={t('settings.contactManager')}>
                              <span>
                                <LockOutlined /> {t(`settings.${f.key}`)}
                              </span>
                            </Tooltip>
                          ) : (
                            t(`settings.${f.key}`)
                          )
                        }
                        valuePropName={f.kind === 'switch' ? 'checked' : 'value'}
                        extra={locked(f.key) && canEdit ? t('settings.contactManager') : undefined}
                        {...feeProps(f)}
                      >
                        {input(f)}
                      </Form.Item>
                    </Col>
                  ))}
                </Row>
              </Card>
            </Col>
          ))}
        </Row>
      </Form>
      <Modal
        open={blocker.state === 'blocked'}
        title={t('common.unsaved')}
        okText={t('common.leave')}
        cancelText={t('common.stay')}
        okButtonProps={{ danger: true }}
        onOk={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      >
        {t('common.unsavedBody')}
      </Modal>
    </>
  );
}
