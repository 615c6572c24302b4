import { Button, Tag, type TableProps } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { TerminalMessageRecord } from '@venue/domain';

/**
 * Columns of the terminal message list: name, title, type, content, the shown
 * period, seconds shown, state (showing now, scheduled, inactive) and, for
 * editors, the edit button.
 */
export function terminalMessageColumns(
  t: TFunction,
  canEdit: boolean,
  onEdit: (m: TerminalMessageRecord) => void,
): TableProps<TerminalMessageRecord>['columns'] {
  return [
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
                onClick={() => onEdit(m)}
              />
            ),
          },
        ]
      : []),
  ];
}
