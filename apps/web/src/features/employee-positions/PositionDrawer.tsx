import { useEffect } from 'react';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { EmployeePositionInput, type EmployeePosition } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { rootOutcome } from '../../shared/forms/formErrors';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { MoneyInput } from '../../shared/MoneyInput';
import { useSavePosition } from './useEmployeePositions';
import { useToast } from '../../shared/toast/ToastProvider';

/** A new position's values: no description, hourly rate 0 agorot (not set). */
export const EMPTY_POSITION: EmployeePositionInput = { name: '', description: '', hourlyRate: 0 };

/** A position's editable fields, for the form. */
export function positionFormValues(p: EmployeePosition | null): EmployeePositionInput {
  return p ? { name: p.name, description: p.description, hourlyRate: p.hourlyRate } : EMPTY_POSITION;
}

/**
 * Create or edit an employee position (seed 001 §3: name, description; §5:
 * name required) with its hourly rate in agorot (docs/attendance.md).
 * Success and failure messages of seed 001 §8.
 */
export function PositionDrawer({
  open,
  position,
  onClose,
}: {
  open: boolean;
  position: EmployeePosition | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const { club } = useSessionData();
  const save = useSavePosition();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: EmployeePositionInput,
    toInput: (v: EmployeePositionInput) => ({ ...EMPTY_POSITION, ...v, hourlyRate: v.hourlyRate ?? 0 }),
    submit: (body) => save.mutateAsync({ id: position?.id ?? null, body }),
    onSaved: () => {
      message.success(t(position ? 'positions.updated' : 'positions.created'));
      onClose();
    },
    byCode: (e) => (e.code === 'NOT_AUTHORIZED' ? rootOutcome(t('positions.notAuthorized')) : undefined),
  });

  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.setFieldsValue(positionFormValues(position));
  }, [open, position, form, clearRootError]);

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      width={440}
      title={position ? t('positions.edit', { name: position.name }) : t('positions.new')}
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="position-save"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        onFinishFailed={onFinishFailed}
        initialValues={EMPTY_POSITION}
      >
        <Form.Item name="name" label={t('positions.name')} required>
          <Input maxLength={100} data-testid="position-name" />
        </Form.Item>
        <Form.Item name="description" label={t('positions.description')}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="position-description" />
        </Form.Item>
        <Form.Item name="hourlyRate" label={t('positions.hourlyRate')} tooltip={t('positions.hourlyRateHint')}>
          <MoneyInput symbol={club.currencySymbol} data-testid="position-rate" />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
