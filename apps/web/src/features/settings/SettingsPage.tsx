import { useEffect, useMemo, useState } from 'react';
import { Link, useBlocker } from 'react-router';
import { Alert, Button, Card, Col, Form, Row, Space, Tooltip, Typography, type FormInstance } from 'antd';
import { LockOutlined, SaveOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ClubPatch, OPERATOR_ONLY_SETTINGS, UserLevel, type Club } from '@venue/domain';
import { ApiError } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useCan } from '../../platform/auth/useCan';
import { QueryState } from '../../shared/QueryState';
import { errorText, validationText } from '../../shared/errors';
import { useGroupList } from '../groups/useGroups';
import { useCities, useClub, useUpdateClub } from './useSettings';

import { changedSettings, SECTIONS, valuesOf, type Field, type Values } from './settingsFields';
import { feeProps, settingInput, type SettingInputContext } from './settingInput';
import { UnsavedChangesModal } from '../../shared/UnsavedChangesModal';
import { LocationCard } from './LocationCard';
import { RetentionCard } from '../privacy/RetentionCard';
import { useToast } from '../../shared/toast/ToastProvider';

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
  const { user } = useSessionData();
  const operator = user.level === UserLevel.SuperUser;
  const allowed = useCan();
  const canEdit = allowed({ edit: 'settings' });
  const [form] = Form.useForm<Values>();
  const initial = useMemo(() => valuesOf(club), [club]);
  const [current, setCurrent] = useState<Values>(initial);
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

  const onSave = useSaveSettings(club, initial, form);

  const inputContext = (f: Field): SettingInputContext => ({
    t,
    disabled: locked(f.key),
    currencySymbol: club.currencySymbol,
    cities: cities.data ?? [],
    groups: groups.data?.items ?? [],
    feeType: (x) => current[x.feeTypeKey!] as number,
    onCountryChange: () => form.setFieldValue('addressCity', ''),
  });

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.settings')}</Typography.Title>
        <Space wrap>
          <Link to="/management/app-settings/money" data-testid="settings-money-link">
            <Button>{t('moneySettings.open')}</Button>
          </Link>
          {/* Seed 000 §8: the low-license toast says "buy more in settings"; the purchase page is here. */}
          <Link to="/management/app-settings/licenses" data-testid="settings-buy-licenses">
            <Button icon={<ShoppingCartOutlined />}>{t('settings.buyLicenses')}</Button>
          </Link>
          {dirty && (
            <Typography.Text type="warning" data-testid="settings-dirty">
              {t('common.unsaved')}
            </Typography.Text>
          )}
          {canEdit && (
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={onSave.saving}
              onClick={() => void onSave.save()}
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
              <SettingsSectionCard
                section={s}
                canEdit={canEdit}
                locked={locked}
                current={current}
                inputContext={inputContext}
              />
            </Col>
          ))}
        </Row>
      </Form>
      <Row gutter={[16, 16]} style={{ marginBlockStart: 16 }}>
        <Col xs={24} xl={12}>
          <LocationCard club={club} canEdit={canEdit} />
        </Col>
        <Col xs={24} xl={12}>
          <RetentionCard />
        </Col>
      </Row>
      <UnsavedChangesModal blocker={blocker} />
    </>
  );
}

/** One section of settings; a locked setting says to contact the manager. */
function SettingsSectionCard({
  section: s,
  canEdit,
  locked,
  current,
  inputContext,
}: {
  section: (typeof SECTIONS)[number];
  canEdit: boolean;
  locked: (key: string) => boolean;
  current: Values;
  inputContext: (f: Field) => SettingInputContext;
}) {
  const { t } = useTranslation();
  return (
    <Card title={t(`settings.section_${s.key}`)} size="small" data-testid={`settings-section-${s.key}`}>
      <Row gutter={12}>
        {s.fields.map((f) => (
          <Col xs={24} sm={f.span ?? 12} key={f.key}>
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
              extra={
                locked(f.key) && canEdit
                  ? t('settings.contactManager')
                  : f.help
                    ? t(`settings.${f.key}Help`)
                    : undefined
              }
              {...feeProps(f, current[f.feeTypeKey ?? ''] as number)}
            >
              {settingInput(f, inputContext(f))}
            </Form.Item>
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/**
 * Saves the changed settings only (ClubPatch); "No changes made" when there
 * are none (seed 001 §8). Field errors land on their setting; CONTACT_MANAGER
 * (an operator-only setting) is worded for club staff.
 */
function useSaveSettings(club: Club, initial: Values, form: FormInstance<Values>) {
  const { t } = useTranslation();
  const message = useToast();
  const update = useUpdateClub();
  const save = async () => {
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
  return { save, saving: update.isPending };
}
