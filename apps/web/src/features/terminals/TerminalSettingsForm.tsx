import { useEffect, useMemo } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  codeI18nKey,
  CREDIT_TYPES,
  ENTRANCE_STATES,
  FINGER_MATCHING_SPEEDS,
  ILS_BILLS,
  ILS_COINS,
  TerminalPatch,
  type Terminal,
} from '@venue/domain';
import { FormRootError } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { shekels } from './TerminalCashCard';
import { useUpdateTerminal } from './useTerminals';
import { useToast } from '../../shared/toast/ToastProvider';

const RELAYS = [
  'gateRelay',
  'gateChannel',
  'lightsRelay',
  'lightsChannel',
  'payoutRelay',
  'payoutChannel',
  'magneticLockRelay',
  'magneticLockChannel',
] as const;
const FLAGS = [
  'maintenanceMode',
  'cvvRequired',
  'allowEnrollment',
  'isCash',
  'isManagement',
  'quickExit',
  'faceRecognition',
] as const;

/**
 * Every field of a terminal (seed 001 §3) in sections: general, gate and
 * relays, cash and acceptors; validated with TerminalPatch. Only the form's
 * own fields are sent (id, serial and connection state are not form items).
 */
export function TerminalSettingsForm({
  term,
  disabled,
  locale,
}: {
  term: Terminal;
  disabled: boolean;
  locale: string;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const update = useUpdateTerminal(term.id);
  const { form, onFinish, rootError, saving } = useSchemaForm({
    schema: TerminalPatch,
    submit: (body) => update.mutateAsync(body),
    onSaved: () => message.success(t('gate.saved')),
    toInput: (v: Terminal) => v,
  });
  const doorOptions = useMemo(() => ENTRANCE_STATES.map((s) => ({ value: s, label: t(`gate.door.${s}`) })), [t]);

  useEffect(() => {
    form.setFieldsValue(term);
  }, [term, form]);

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} disabled={disabled} data-testid="terminal-form">
      <FormRootError message={rootError} />
      <Card title={t('gate.general')} size="small">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('terminals.name')} required>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item label={t('terminals.serial')} htmlFor="terminal-serial">
              <Input id="terminal-serial" dir="ltr" value={term.serial} disabled />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item name="isMain" label={t('gate.isMain')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          {FLAGS.map((f) => (
            <Col xs={12} sm={8} key={f}>
              <Form.Item name={f} label={t(`gate.field.${f}`)} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          ))}
          <Col xs={24} sm={12}>
            <Form.Item name="creditType" label={t('gate.field.creditType')}>
              <Select options={CREDIT_TYPES.map((c) => ({ value: c, label: t(`gate.creditType.${c}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="fingerMatchingSpeed" label={t('gate.field.fingerMatchingSpeed')}>
              <Select options={FINGER_MATCHING_SPEEDS.map((s) => ({ value: s, label: t(`gate.speed.${s}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="accountingTerminalNumber" label={t('gate.field.accountingTerminalNumber')}>
              <Input dir="ltr" />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('gate.gateAndRelays')} size="small" style={{ marginBlockStart: 16 }}>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="gateOpenSeconds" label={t('gate.field.gateOpenSeconds')}>
              <InputNumber min={1} max={120} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="doorState" label={t('gate.doorState')}>
              <Select options={doorOptions} />
            </Form.Item>
          </Col>
          {RELAYS.map((r) => (
            <Col xs={12} sm={6} key={r}>
              <Form.Item name={r} label={t(`gate.field.${r}`)}>
                <InputNumber min={0} max={64} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Card>
      <CashAndAcceptorsCard locale={locale} />
      {!disabled && (
        <div style={{ marginBlockStart: 16 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="terminal-save">
            {t('common.save')}
          </Button>
        </div>
      )}
    </Form>
  );
}

/** Cash connection and the coin and bill acceptors: fitted, model, accepted denominations (agorot). */
function CashAndAcceptorsCard({ locale }: { locale: string }) {
  const { t } = useTranslation();
  return (
    <Card title={t('gate.cashAndAcceptors')} size="small" style={{ marginBlockStart: 16 }}>
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item name="cashConnectionType" label={t('gate.field.cashConnectionType')}>
            <Select options={[1, 2].map((value) => ({ value, label: t(codeI18nKey('connectionType', value)) }))} />
          </Form.Item>
        </Col>
        {(['coinAcceptor', 'billAcceptor'] as const).map((a) => (
          <Col xs={24} key={a}>
            <Typography.Text strong>{t(`gate.field.${a}`)}</Typography.Text>
            <Row gutter={12}>
              <Col xs={8} sm={4}>
                <Form.Item name={[a, 'enabled']} label={t('gate.fitted')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
              <Col xs={16} sm={8}>
                <Form.Item name={[a, 'model']} label={t('gate.model')}>
                  <Input dir="ltr" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name={[a, 'accepted']} label={t('gate.accepted')}>
                  <Select
                    mode="multiple"
                    options={(a === 'coinAcceptor' ? ILS_COINS : ILS_BILLS).map((d) => ({
                      value: d,
                      label: shekels(d, locale),
                    }))}
                  />
                </Form.Item>
              </Col>
            </Row>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
