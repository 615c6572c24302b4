import { useState } from 'react';
import { Link } from 'react-router';
import {
  App,
  Badge,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Table,
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import { CheckOutlined, CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TerminalInput, type Terminal } from '@venue/domain';
import { useAuth } from '../../app/auth/AuthProvider';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { ApiError } from '../../app/api/apiClient';
import { applyFieldIssues, errorText, serverFieldIssues, zodFieldIssues } from '../../shared/errors';
import { useApproveTerminal, useCreateTerminal, useTerminalList } from './useTerminals';

interface NewTerminalValues {
  serial: string;
  name: string;
}

/** /management/app-terminals-list: terminals with their live connection state. */
export function TerminalsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { message } = App.useApp();
  const { data } = useAuth();
  const canEdit = data?.user.roleEditTerminals === true;
  const [showDeleted, setShowDeleted] = useState(false);
  const query = useTerminalList({ deleted: showDeleted });
  const create = useCreateTerminal();
  const approve = useApproveTerminal();
  const [form] = Form.useForm<NewTerminalValues>();
  const [createOpen, setCreateOpen] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const fmt = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });

  const onCreate = async (values: NewTerminalValues) => {
    const parsed = TerminalInput.safeParse(values);
    if (!parsed.success) {
      applyFieldIssues(form, zodFieldIssues(t, parsed.error));
      return;
    }
    try {
      const res = await create.mutateAsync(parsed.data);
      setCreateOpen(false);
      form.resetFields();
      setSecret({ name: res.name, secret: res.secret });
    } catch (e) {
      if (!(e instanceof ApiError && applyFieldIssues(form, serverFieldIssues(t, e)))) message.error(errorText(t, e));
    }
  };

  const columns: TableProps<Terminal>['columns'] = [
    {
      title: t('terminals.connected'),
      dataIndex: 'connected',
      key: 'connected',
      width: 110,
      render: (c: boolean, x) => (
        <span
          data-testid={`terminal-live-${x.id}`}
          data-connected={c ? 'true' : 'false'}
          style={{ whiteSpace: 'nowrap' }}
        >
          <Badge status={c ? 'success' : 'default'} text={c ? t('terminals.online') : t('terminals.offline')} />
        </span>
      ),
    },
    {
      title: t('terminals.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, x) => (
        <Link to={`/management/app-terminals-list/${x.id}`} data-testid={`terminal-link-${x.id}`}>
          {name}
        </Link>
      ),
    },
    {
      title: t('gate.doorState'),
      dataIndex: 'doorState',
      key: 'doorState',
      render: (d: number, x) => (
        <Tag color={d === 1 ? 'red' : 'green'} data-testid={`terminal-door-${x.id}`}>
          {t(`gate.door.${d}`)}
        </Tag>
      ),
    },
    {
      title: t('terminals.serial'),
      dataIndex: 'serial',
      key: 'serial',
      render: (v: string) => (
        <Typography.Text code className="ltr-value">
          {v}
        </Typography.Text>
      ),
    },
    {
      title: t('terminals.approved'),
      dataIndex: 'approved',
      key: 'approved',
      render: (a: boolean, x) =>
        a ? (
          <Tag color="green">{t('terminals.approvedYes')}</Tag>
        ) : canEdit ? (
          <Popconfirm
            title={t('terminals.approveConfirm')}
            onConfirm={() => approve.mutateAsync(x.id).catch((e: unknown) => message.error(errorText(t, e)))}
          >
            <Button size="small" icon={<CheckOutlined />} data-testid={`terminal-approve-${x.id}`}>
              {t('terminals.approve')}
            </Button>
          </Popconfirm>
        ) : (
          <Tag color="orange">{t('terminals.notApproved')}</Tag>
        ),
    },
    {
      title: t('terminals.lastConnection'),
      dataIndex: 'lastConnection',
      key: 'lastConnection',
      responsive: ['sm'],
      render: (v: string | null) => (v ? <span className="ltr-value">{fmt.format(new Date(v))}</span> : '—'),
    },
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.terminals')}</Typography.Title>
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreateOpen(true)} data-testid="terminal-new">
            {t('terminals.new')}
          </Button>
        )}
      </div>
      <Segmented
        style={{ marginBlockEnd: 12 }}
        value={showDeleted ? 'deleted' : 'active'}
        onChange={(v) => setShowDeleted(v === 'deleted')}
        options={[
          { value: 'active', label: t('gate.showActive') },
          { value: 'deleted', label: t('gate.showDeleted') },
        ]}
      />
      <Table<Terminal>
        data-testid="terminals-table"
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('common.noData') }}
      />
      <Modal
        open={createOpen}
        title={t('terminals.new')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={create.isPending}
        onOk={() => form.submit()}
        onCancel={() => setCreateOpen(false)}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" onFinish={onCreate}>
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
