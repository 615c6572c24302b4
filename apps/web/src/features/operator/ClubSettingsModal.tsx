import { useEffect } from 'react';
import { Form, InputNumber, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OperatorClub, OperatorClubSettingsPatch } from '@venue/domain';
import { fromMinor, toMinor } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useClubOperatorSettings, useUpdateClubOperatorSettings } from './useOperator';

/** Currencies a club may use (ISO 4217 numeric codes of club.ts ClubPatch). */
const CURRENCIES = [
  { value: 376, label: '₪ ILS' },
  { value: 840, label: '$ USD' },
  { value: 978, label: '€ EUR' },
  { value: 826, label: '£ GBP' },
  { value: 348, label: 'Ft HUF' },
];

interface Values {
  licenseYearlyPrice: number;
  currency: number;
  isKalaSubscriptionEnabled: boolean;
  subscriptionTvilotKalaQty: number;
}

/**
 * The settings a club sees as "contact the manager" (seed 001 §3; club.ts
 * OPERATOR_ONLY_SETTINGS), edited by the operator from the Clubs list
 * (PATCH /Operator/Club/{id}/Settings). The license pool changes only by a
 * load (the "Load licenses" action), never here. The price is entered in
 * major units and sent in minor units.
 */
export function ClubSettingsModal({ club, onClose }: { club: OperatorClub | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [form] = Form.useForm<Values>();
  const settings = useClubOperatorSettings(club?.id ?? null);
  const save = useUpdateClubOperatorSettings();
  // The stored values fill the form when they arrive, never over what the operator already typed (a
  // refetch while the dialog is open); the fields stay disabled until then.
  useEffect(() => {
    if (settings.data && !form.isFieldsTouched())
      form.setFieldsValue({ ...settings.data, licenseYearlyPrice: fromMinor(settings.data.licenseYearlyPrice) });
  }, [settings.data, club, form]);
  const submit = async () => {
    const v = await form.validateFields();
    const body: OperatorClubSettingsPatch = { ...v, licenseYearlyPrice: toMinor(v.licenseYearlyPrice) };
    save.mutate(
      { id: club!.id, body },
      {
        onSuccess: () => {
          toast.success(t('operator.settings.saved', { name: club!.name }));
          onClose();
        },
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  };
  return (
    <Modal
      open={club != null}
      afterClose={() => form.resetFields()}
      title={club ? t('operator.settings.title', { name: club.name }) : ''}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('operator.settings.save')}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !settings.data, ...{ 'data-testid': 'club-settings-save' } }}
    >
      <Form form={form} layout="vertical" disabled={!settings.data} data-testid="club-settings-form">
        <Form.Item
          name="licenseYearlyPrice"
          label={t('operator.settings.licenseYearlyPrice')}
          rules={[{ required: true }]}
        >
          <InputNumber min={0} max={1_000_000} precision={2} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="currency" label={t('operator.settings.currency')}>
          <Select options={CURRENCIES} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="isKalaSubscriptionEnabled" label={t('operator.settings.kala')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="subscriptionTvilotKalaQty" label={t('operator.settings.kalaQty')}>
          <InputNumber min={0} max={1000} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
