import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Segmented, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  NOTICE_CHANNELS,
  NOTICE_KINDS,
  type NoticeChannel,
  type NoticeKind,
  type TemplatePreview,
} from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useTemplateActions, useTemplates } from './useNotifications';

interface Values {
  subject: string;
  body: string;
}

/**
 * The club's wording of each notice (docs/notifications.md "Templates"): pick kind, language and
 * channel, edit, preview with sample values and the club's name, save or go back to the built-in.
 */
export function TemplatesTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const mayEdit = useCan()({ edit: 'settings' });
  const [kind, setKind] = useState<NoticeKind>('renewal-coming');
  const [lang, setLang] = useState<'he' | 'en'>('he');
  const [channel, setChannel] = useState<NoticeChannel>('email');
  const [preview, setPreview] = useState<TemplatePreview | null>(null);
  const [form] = Form.useForm<Values>();
  const list = useTemplates();
  const actions = useTemplateActions();
  const current = list.data?.find((x) => x.kind === kind && x.lang === lang && x.channel === channel);
  useEffect(() => {
    if (current) form.setFieldsValue({ subject: current.subject, body: current.body });
    setPreview(null);
  }, [current, form]);
  const input = () => ({
    kind,
    lang,
    channel,
    subject: form.getFieldValue('subject') ?? '',
    body: form.getFieldValue('body') ?? '',
  });
  const fail = (e: unknown) => toast.error(errorText(t, e));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Space wrap>
        <Select
          style={{ minWidth: 200 }}
          aria-label={t('notifications.outbox.kind')}
          value={kind}
          onChange={setKind}
          options={NOTICE_KINDS.map((k) => ({ value: k, label: t(`notifications.kinds.${k}`) }))}
        />
        <Segmented
          value={lang}
          onChange={(v) => setLang(v as 'he' | 'en')}
          options={[
            { value: 'he', label: 'עברית' },
            { value: 'en', label: 'English' },
          ]}
        />
        <Segmented
          value={channel}
          onChange={(v) => setChannel(v as NoticeChannel)}
          options={NOTICE_CHANNELS.map((c) => ({ value: c, label: t(`notifications.channels.${c}`) }))}
        />
        {current && (
          <Tag color={current.custom ? 'blue' : 'default'}>
            {t(current.custom ? 'notifications.templates.custom' : 'notifications.templates.builtIn')}
          </Tag>
        )}
      </Space>
      <Form form={form} layout="vertical" disabled={!mayEdit}>
        {channel === 'email' && (
          <Form.Item name="subject" label={t('notifications.templates.subject')}>
            <Input dir={lang === 'he' ? 'rtl' : 'ltr'} />
          </Form.Item>
        )}
        <Form.Item
          name="body"
          label={t('notifications.templates.body')}
          extra={
            current && `${t('notifications.templates.fields')}: ${current.fields.map((f) => `{{${f}}}`).join(' ')}`
          }
        >
          <Input.TextArea rows={6} dir={lang === 'he' ? 'rtl' : 'ltr'} data-testid="template-body" />
        </Form.Item>
      </Form>
      <Space wrap>
        {/* Preview and save wait for the template: before it loads, the form is empty (the preview was refused). */}
        <Button
          disabled={!current}
          onClick={() => actions.preview.mutateAsync(input()).then(setPreview, fail)}
          data-testid="template-preview"
        >
          {t('notifications.templates.preview')}
        </Button>
        {mayEdit && (
          <Button
            type="primary"
            disabled={!current}
            loading={actions.save.isPending}
            onClick={() =>
              actions.save.mutateAsync(input()).then(() => toast.success(t('notifications.templates.saved')), fail)
            }
          >
            {t('notifications.templates.save')}
          </Button>
        )}
        {mayEdit && current?.custom && (
          <Button
            onClick={() =>
              actions.reset
                .mutateAsync({ kind, lang, channel })
                .then(() => toast.success(t('notifications.templates.resetDone')), fail)
            }
          >
            {t('notifications.templates.reset')}
          </Button>
        )}
      </Space>
      {preview && <PreviewCard preview={preview} lang={lang} channel={channel} />}
    </Space>
  );
}

/** A template filled with sample values: subject (e-mail), text, and an SMS's part count. */
function PreviewCard({
  preview,
  lang,
  channel,
}: {
  preview: TemplatePreview;
  lang: 'he' | 'en';
  channel: NoticeChannel;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('notifications.templates.previewTitle')} data-testid="template-preview-card">
      {preview.subject && (
        <Typography.Paragraph strong dir="auto">
          {preview.subject}
        </Typography.Paragraph>
      )}
      <Typography.Paragraph dir={lang === 'he' ? 'rtl' : 'ltr'} style={{ whiteSpace: 'pre-wrap' }}>
        {preview.text}
      </Typography.Paragraph>
      {channel === 'sms' && (
        <Alert
          type={preview.smsParts > 1 ? 'warning' : 'info'}
          message={t('notifications.templates.smsParts', { count: preview.smsParts })}
        />
      )}
    </Card>
  );
}
