import { useEffect } from 'react';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { COUNTRIES, OperatorClubInput, type OperatorClubCreated } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';
import { useCreateClub } from './useOperator';

interface ClubFormValues {
  externalClubId?: number;
  name?: string;
  country?: (typeof COUNTRIES)[number];
  adminUsername?: string;
}

/** The operator's "new club" form (POST /Operator/Club); hands the created club and password to `onCreated`. */
export function ClubCreateDrawer({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (created: OperatorClubCreated) => void;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const create = useCreateClub();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: OperatorClubInput,
    toInput: (v: ClubFormValues) => ({ ...v, adminUsername: v.adminUsername || 'admin' }),
    submit: (body) => create.mutateAsync(body),
    onSaved: (created) => {
      toast.success(t('operator.created', { name: created.club.name }));
      onCreated(created);
      onClose();
    },
  });

  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.resetFields();
  }, [open, form, clearRootError]);

  return (
    <FormDrawer
      open={open}
      title={t('operator.newClub')}
      onClose={onClose}
      forceRender
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="club-create-save"
    >
      <Form form={form} layout="vertical" onFinish={onFinish} onFinishFailed={onFinishFailed}>
        <Form.Item name="externalClubId" label={t('operator.externalClubId')} required>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="club-external-id" />
        </Form.Item>
        <Form.Item name="name" label={t('operator.name')} required>
          <Input maxLength={100} data-testid="club-name-input" />
        </Form.Item>
        <Form.Item name="country" label={t('operator.country')} extra={t('operator.countryDefault')}>
          <Select
            allowClear
            options={COUNTRIES.map((c) => ({ value: c, label: t(`operator.countries.${c}`) }))}
            data-testid="club-country"
          />
        </Form.Item>
        <Form.Item name="adminUsername" label={t('operator.adminUsername')}>
          <Input maxLength={50} placeholder="admin" autoComplete="off" data-testid="club-admin-username" />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
