import { useEffect } from 'react';
import { Col, DatePicker, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { GLOBAL_MESSAGE_KINDS, GlobalMessageInput, MESSAGE_AUDIENCES, type GlobalMessageRecord } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { globalMessageBody, globalMessageFormValues, type GlobalMessageFormValues } from './globalMessageForm';
import { useSaveGlobalMessage } from './useMessages';
import { LazyMessageEditor } from './LazyMessageEditor';
import { useToast } from '../../shared/toast/ToastProvider';

/** The operator's composer: write or change a global message (docs/messages.md). */
export function GlobalMessageDrawer({
  editing,
  onClose,
}: {
  editing: GlobalMessageRecord | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSaveGlobalMessage();
  const record = editing === 'new' ? null : editing;
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: GlobalMessageInput,
    toInput: (v: GlobalMessageFormValues) => globalMessageBody(v),
    submit: (body) => save.mutateAsync({ id: record ? record.id : undefined, body }),
    onSaved: () => {
      message.success(t('messages.saved'));
      onClose();
    },
  });
  const audience = Form.useWatch('audience', form);

  useEffect(() => {
    if (editing == null) return;
    clearRootError();
    form.resetFields();
    form.setFieldsValue(globalMessageFormValues(record));
  }, [editing, record, form, clearRootError]);

  return (
    <FormDrawer
      open={editing != null}
      title={record ? t('messages.edit', { title: record.title }) : t('messages.compose')}
      onClose={onClose}
      width={560}
      forceRender
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
    >
      <Form form={form} layout="vertical" onFinish={onFinish} onFinishFailed={onFinishFailed}>
        <Form.Item name="title" label={t('messages.title')} required>
          <Input maxLength={200} data-testid="compose-title" />
        </Form.Item>
        <Form.Item name="body" label={t('messages.body')} extra={t('messages.bodyHint')}>
          <LazyMessageEditor label={t('messages.body')} data-testid="compose-body" />
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="kind" label={t('messages.kind')}>
              <Select
                data-testid="compose-kind"
                options={GLOBAL_MESSAGE_KINDS.map((k) => ({ value: k, label: t(`messages.kinds.${k}`) }))}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="audience" label={t('messages.audience')}>
              <Select
                data-testid="compose-audience"
                options={MESSAGE_AUDIENCES.map((a) => ({ value: a, label: t(`messages.audiences.${a}`) }))}
              />
            </Form.Item>
          </Col>
        </Row>
        {audience === 'clubs' && (
          <Form.Item name="externalClubIds" label={t('messages.externalClubIds')} required>
            <Select mode="tags" tokenSeparators={[',', ' ']} open={false} data-testid="compose-clubs" />
          </Form.Item>
        )}
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="publishAt" label={t('messages.publishAt')} extra={t('messages.publishHint')}>
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="expiresAt" label={t('messages.expiresAt')}>
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormDrawer>
  );
}
