import { useEffect } from 'react';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { IncidentInput } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';
import { useFeedbackCategories } from '../feedback-categories/useFeedbackCategories';
import { useTerminalList } from '../terminals/useTerminals';
import { useReportIncident } from './useIncidents';

interface ReportValues {
  categoryId: number | undefined;
  terminalId: number | undefined;
  note: string;
}

/**
 * Staff report an incident in one of the club's feedback categories, at one
 * of its terminals or none (the reception, a room), with an optional note.
 */
export function ReportIncidentDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const categories = useFeedbackCategories();
  const terminals = useTerminalList();
  const report = useReportIncident();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: IncidentInput,
    toInput: (v: ReportValues) => ({
      note: v.note ?? '',
      terminalId: v.terminalId ?? null,
      ...(v.categoryId ? { categoryId: v.categoryId } : {}),
    }),
    submit: (body) => report.mutateAsync(body),
    onSaved: () => {
      toast.success(t('incidents.reported'));
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
      title={t('incidents.report')}
      onClose={onClose}
      width={440}
      forceRender
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="incident-save"
    >
      <Form form={form} layout="vertical" onFinish={onFinish} onFinishFailed={onFinishFailed}>
        <Form.Item name="categoryId" label={t('incidents.category')} required>
          <Select
            data-testid="incident-category"
            options={(categories.data?.items ?? []).map((c) => ({
              value: c.id,
              label: `${c.name} (${t(`feedbackCategories.types.${c.type}`)})`,
            }))}
          />
        </Form.Item>
        <Form.Item name="terminalId" label={t('incidents.terminal')} extra={t('incidents.terminalHint')}>
          <Select
            data-testid="incident-terminal"
            allowClear
            showSearch
            optionFilterProp="label"
            loading={terminals.isLoading}
            options={(terminals.data?.items ?? []).map((x) => ({ value: x.id, label: x.name || x.serial }))}
          />
        </Form.Item>
        <Form.Item name="note" label={t('incidents.note')}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="incident-note" />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
