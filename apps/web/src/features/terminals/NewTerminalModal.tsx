import { useEffect, useState } from 'react';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TerminalInput } from '@venue/domain';
import { FormRootError } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useCreateTerminal } from './useTerminals';

interface NewTerminalValues {
  serial: string;
  name: string;
}

/**
 * Register a terminal by serial and name (TerminalInput); the server answers
 * with the terminal's secret, shown once in a second dialog to copy into the
 * terminal (docs/terminal-protocol.md "Secrets").
 */
export function NewTerminalModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateTerminal();
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const { form, onFinish, rootError, clearRootError, saving } = useSchemaForm({
    schema: TerminalInput,
    toInput: (v: NewTerminalValues) => v,
    submit: (body) => create.mutateAsync(body),
    onSaved: (res) => {
      onClose();
      form.resetFields();
      setSecret({ name: res.name, secret: res.secret });
    },
  });

  useEffect(() => {
    if (open) clearRootError();
  }, [open, clearRootError]);

  return (
    <>
      <Modal
        open={open}
        title={t('terminals.new')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={onClose}
        destroyOnHidden
        forceRender
      >
        <FormRootError message={rootError} />
        <Form form={form} layout="vertical" onFinish={onFinish}>
          <Form.Item name="serial" label={t('terminals.serial')} required>
            <Input dir="ltr" data-testid="terminal-serial" />
          </Form.Item>
          <Form.Item name="name" label={t('terminals.name')} required>
            <Input data-testid="terminal-name" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={secret != null}
        title={t('terminals.secretTitle', { name: secret?.name ?? '' })}
        onCancel={() => setSecret(null)}
        footer={
          <Button type="primary" onClick={() => setSecret(null)}>
            {t('common.close')}
          </Button>
        }
      >
        <Typography.Paragraph>{t('terminals.secretOnce')}</Typography.Paragraph>
        <Typography.Paragraph
          code
          className="ltr-value"
          data-testid="terminal-secret"
          copyable={{
            text: secret?.secret ?? '',
            icon: <CopyOutlined />,
            tooltips: [t('common.copy'), t('common.copied')],
          }}
        >
          {secret?.secret}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
