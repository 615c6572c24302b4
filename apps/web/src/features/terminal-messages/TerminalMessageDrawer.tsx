import { useEffect } from 'react';
import { Col, DatePicker, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { TERMINAL_MESSAGE_TYPES, TerminalMessageInput, type TerminalMessageRecord } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import {
  terminalMessageBody,
  terminalMessageField,
  terminalMessageFormValues,
  type TerminalMessageFormValues,
} from './terminalMessageForm';
import { useSaveTerminalMessage } from './useTerminalMessages';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * Create or edit a terminal message (seed 001 §3 "Terminal message"); the
 * server pushes a saved message to the connected terminals.
 */
export function TerminalMessageDrawer({
  editing,
  onClose,
}: {
  /** The message edited, 'new', or null when closed. */
  editing: TerminalMessageRecord | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSaveTerminalMessage();
  const record = editing === 'new' ? null : editing;
  const { form, onFinish, rootError, clearRootError, saving } = useSchemaForm({
    schema: TerminalMessageInput,
    toInput: (v: TerminalMessageFormValues) => terminalMessageBody(v),
    submit: (body) => save.mutateAsync({ id: record ? record.id : undefined, body }),
    onSaved: () => {
      message.success(t('terminalMessages.saved'));
      onClose();
    },
    fieldName: terminalMessageField,
  });

  useEffect(() => {
    if (editing == null) return;
    clearRootError();
    form.resetFields();
    form.setFieldsValue(terminalMessageFormValues(editing === 'new' ? null : editing));
  }, [editing, form, clearRootError]);

  return (
    <FormDrawer
      open={editing != null}
      title={editing === 'new' ? t('terminalMessages.new') : t('terminalMessages.edit', { name: editing?.name ?? '' })}
      onClose={onClose}
      width={520}
      forceRender
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
    >
      <Form form={form} layout="vertical" onFinish={onFinish}>
        <Form.Item name="name" label={t('terminalMessages.name')} required>
          <Input />
        </Form.Item>
        <Form.Item name="title" label={t('terminalMessages.title')} extra={t('terminalMessages.titleHint')}>
          <Input />
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="type" label={t('terminalMessages.type')}>
              <Select
                options={TERMINAL_MESSAGE_TYPES.map((ty) => ({
                  value: ty,
                  label: t(`terminalMessages.types.${ty}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="displaySeconds" label={t('terminalMessages.displaySeconds')}>
              <InputNumber min={1} max={3600} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="content" label={t('terminalMessages.content')}>
          <Input.TextArea rows={4} maxLength={4000} showCount />
        </Form.Item>
        <Form.Item name="dates" label={t('terminalMessages.dates')} extra={t('terminalMessages.datesHint')}>
          <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="active" label={t('terminalMessages.active')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
