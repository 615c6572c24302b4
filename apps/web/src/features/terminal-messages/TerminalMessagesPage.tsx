import { useState } from 'react';
import {
  App,
  Button,
  Col,
  DatePicker,
  Drawer,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  TERMINAL_MESSAGE_DEFAULT_SECONDS,
  TERMINAL_MESSAGE_TYPES,
  TerminalMessageInput,
  type TerminalMessageRecord,
} from '@venue/domain';
import { useAuth } from '../../app/auth/AuthProvider';
import { ApiError } from '../../app/api/apiClient';
import { applyFieldIssues, errorText, serverFieldIssues, zodFieldIssues } from '../../shared/errors';
import { useSaveTerminalMessage, useTerminalMessages } from './useTerminalMessages';

interface FormValues {
  name: string;
  title: string;
  type: string;
  content: string;
  dates: [Dayjs | null, Dayjs | null] | null;
  displaySeconds: number;
  active: boolean;
}

/**
 * /management/terminal-messages (seed 000 §2, seed 001 §3 "Terminal
 * message"): messages the club's terminals show to clients; saving pushes
 * them to the connected terminals at once (server side).
 */
export function TerminalMessagesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: me } = useAuth();
  const canEdit = me?.user.roleEditTerminalMessages === true;
  const query = useTerminalMessages();
  const save = useSaveTerminalMessage();
  const [form] = Form.useForm<FormValues>();
  const [editing, setEditing] = useState<TerminalMessageRecord | 'new' | null>(null);

  const open = (m: TerminalMessageRecord | 'new') => {
    setEditing(m);
    form.resetFields();
    form.setFieldsValue(
      m === 'new'
        ? {
            name: '',
            title: '',
            type: 'Basic',
            content: '',
            dates: null,
            displaySeconds: TERMINAL_MESSAGE_DEFAULT_SECONDS,
            active: true,
          }
        : {
            ...m,
            dates: [m.startDate ? dayjs(m.startDate) : null, m.endDate ? dayjs(m.endDate) : null],
          },
    );
  };

  const onSave = async (v: FormValues) => {
    const body = {
      name: v.name,
      title: v.title ?? '',
      type: v.type,
      content: v.content ?? '',
      startDate: v.dates?.[0] ? v.dates[0].format('YYYY-MM-DD') : null,
      endDate: v.dates?.[1] ? v.dates[1].format('YYYY-MM-DD') : null,
      displaySeconds: v.displaySeconds,
      active: v.active,
    };
    const parsed = TerminalMessageInput.safeParse(body);
    if (!parsed.success) {
      applyFieldIssues(form, zodFieldIssues(t, parsed.error));
      return;
    }
    try {
      await save.mutateAsync({ id: editing !== 'new' && editing ? editing.id : undefined, body: parsed.data });
      message.success(t('terminalMessages.saved'));
      setEditing(null);
    } catch (e) {
      if (e instanceof ApiError) {
        // An end before the start is reported on endDate; show it on the date range.
        const issues = serverFieldIssues(t, e).map((i) =>
          i.name[0] === 'endDate' || i.name[0] === 'startDate' ? { ...i, name: ['dates'] } : i,
        );
        if (applyFieldIssues(form, issues)) return;
      }
      message.error(errorText(t, e));
    }
  };

  const columns: TableProps<TerminalMessageRecord>['columns'] = [
    { title: t('terminalMessages.name'), dataIndex: 'name', key: 'name' },
    { title: t('terminalMessages.title'), dataIndex: 'title', key: 'title', responsive: ['md'] },
    {
      title: t('terminalMessages.type'),
      dataIndex: 'type',
      key: 'type',
      render: (ty: string) => t(`terminalMessages.types.${ty}`),
    },
    {
      title: t('terminalMessages.content'),
      dataIndex: 'content',
      key: 'content',
      ellipsis: true,
      responsive: ['sm'],
    },
    {
      title: t('terminalMessages.dates'),
      key: 'dates',
      responsive: ['md'],
      render: (_: unknown, m) => (
        <span className="ltr-value">
          {m.startDate ?? '…'} – {m.endDate ?? '…'}
        </span>
      ),
    },
    {
      title: t('terminalMessages.displaySeconds'),
      dataIndex: 'displaySeconds',
      key: 'displaySeconds',
      responsive: ['md'],
    },
    {
      title: t('terminalMessages.state'),
      key: 'state',
      render: (_: unknown, m) =>
        m.showing ? (
          <Tag color="green">{t('terminalMessages.showing')}</Tag>
        ) : m.active ? (
          <Tag color="blue">{t('terminalMessages.scheduled')}</Tag>
        ) : (
          <Tag>{t('terminalMessages.inactive')}</Tag>
        ),
    },
    ...(canEdit
      ? [
          {
            key: 'edit',
            width: 60,
            render: (_: unknown, m: TerminalMessageRecord) => (
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('terminalMessages.edit', { name: m.name })}
                onClick={() => open(m)}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.terminalMessages')}</Typography.Title>
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="message-new">
            {t('terminalMessages.new')}
          </Button>
        )}
      </div>
      <Table<TerminalMessageRecord>
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('terminalMessages.empty') }}
      />
      <Drawer
        open={editing != null}
        title={
          editing === 'new' ? t('terminalMessages.new') : t('terminalMessages.edit', { name: editing?.name ?? '' })
        }
        onClose={() => setEditing(null)}
        width={Math.min(520, typeof window !== 'undefined' ? window.innerWidth : 520)}
        destroyOnHidden
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical" onFinish={onSave}>
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
      </Drawer>
    </>
  );
}
