import { useEffect } from 'react';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { IncidentInput } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';
import { useFeedbackCategories } from '../feedback-categories/useFeedbackCategories';
import { useReportIncident } from './useIncidents';

interface ReportValues {
  categoryId: number | undefined;
  note: string;
}

/** Staff report an incident in one of the club's feedback categories, with an optional note. */
export function ReportIncidentDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const categories = useFeedbackCategories();
  const report = useReportIncident();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: IncidentInput,
    toInput: (v: ReportValues) => ({ note: v.note ?? '', ...(v.categoryId ? { categoryId: v.categoryId } : {}) }),
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
        <Form.Item name="note" label={t('incidents.note')}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="incident-note" />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
