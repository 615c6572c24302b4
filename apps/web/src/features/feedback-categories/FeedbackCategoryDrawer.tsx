import { useEffect } from 'react';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FeedbackCategoryInput, TERMINAL_MODES, type FeedbackCategory } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import {
  feedbackCategoryBody,
  feedbackCategoryFormValues,
  type FeedbackCategoryFormValues,
} from './feedbackCategoryForm';
import { useSaveFeedbackCategory } from './useFeedbackCategories';
import { useToast } from '../../shared/toast/ToastProvider';

/** Create or edit a feedback category (seed 001 §3; required fields seed 001 §5). */
export function FeedbackCategoryDrawer({
  editing,
  onClose,
}: {
  /** The category edited, 'new', or null when closed. */
  editing: FeedbackCategory | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSaveFeedbackCategory();
  const record = editing === 'new' ? null : editing;
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: FeedbackCategoryInput,
    toInput: (v: FeedbackCategoryFormValues) => feedbackCategoryBody(v),
    submit: (body) => save.mutateAsync({ id: record ? record.id : undefined, body }),
    onSaved: () => {
      // Seed 001 §8 "Feedback category created or updated".
      message.success(t('feedbackCategories.saved'));
      onClose();
    },
  });

  useEffect(() => {
    if (editing == null) return;
    clearRootError();
    form.resetFields();
    form.setFieldsValue(feedbackCategoryFormValues(editing === 'new' ? null : editing));
  }, [editing, form, clearRootError]);

  const idInput = <InputNumber min={1} precision={0} style={{ width: '100%' }} />;
  return (
    <FormDrawer
      open={editing != null}
      title={
        editing === 'new' ? t('feedbackCategories.new') : t('feedbackCategories.edit', { name: record?.name ?? '' })
      }
      onClose={onClose}
      width={480}
      forceRender
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
    >
      <Form form={form} layout="vertical" onFinish={onFinish} onFinishFailed={onFinishFailed}>
        <Form.Item name="name" label={t('feedbackCategories.name')} required>
          <Input data-testid="category-name" maxLength={100} />
        </Form.Item>
        <Form.Item name="type" label={t('feedbackCategories.type')} required>
          <Select
            data-testid="category-type"
            options={TERMINAL_MODES.map((m) => ({ value: m, label: t(`feedbackCategories.types.${m}`) }))}
          />
        </Form.Item>
        <Form.Item name="reportingSystemCategoryId" label={t('feedbackCategories.reportingSystemCategoryId')} required>
          {idInput}
        </Form.Item>
        <Form.Item name="defaultSeverityId" label={t('feedbackCategories.defaultSeverityId')} required>
          {idInput}
        </Form.Item>
        <Form.Item name="reportingSystemLocationId" label={t('feedbackCategories.reportingSystemLocationId')}>
          {idInput}
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
