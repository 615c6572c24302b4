import { Link } from 'react-router';
import { Badge, Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { ArrowRightOutlined, DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Terminal } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useDeleteRestoreTerminal } from './useTerminals';
import { useToast } from '../../shared/toast/ToastProvider';

/** The terminal's name with its live connection, deleted and approval tags; delete or restore for editors. */
export function TerminalHeader({ term, canEdit }: { term: Terminal; canEdit: boolean }) {
  const { t } = useTranslation();
  const message = useToast();
  const { del, restore } = useDeleteRestoreTerminal(term.id);
  return (
    <div className="page-header">
      <Space wrap>
        <Link to="/management/app-terminals-list" aria-label={t('gate.backToList')}>
          <ArrowRightOutlined className="back-arrow" />
        </Link>
        <Typography.Title level={2} data-testid="terminal-title">
          {term.name}
        </Typography.Title>
        <span data-testid="terminal-detail-live" data-connected={term.connected ? 'true' : 'false'}>
          <Badge
            status={term.connected ? 'success' : 'default'}
            text={term.connected ? t('terminals.online') : t('terminals.offline')}
          />
        </span>
        {term.deleted && <Tag color="red">{t('gate.deletedTag')}</Tag>}
        {!term.approved && <Tag color="orange">{t('terminals.notApproved')}</Tag>}
      </Space>
      {canEdit && (
        <Space wrap>
          {term.deleted ? (
            <Button
              icon={<UndoOutlined />}
              data-testid="terminal-restore"
              loading={restore.isPending}
              onClick={() =>
                restore.mutateAsync().then(
                  () => message.success(t('gate.restored')),
                  (e: unknown) => message.error(errorText(t, e)),
                )
              }
            >
              {t('gate.restore')}
            </Button>
          ) : (
            <Popconfirm
              title={t('gate.deleteConfirm', { name: term.name })}
              onConfirm={() =>
                del.mutateAsync().then(
                  () => message.success(t('gate.deleted')),
                  (e: unknown) => message.error(errorText(t, e)),
                )
              }
            >
              <Button danger icon={<DeleteOutlined />} data-testid="terminal-delete">
                {t('gate.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </div>
  );
}
