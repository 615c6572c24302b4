import { useState } from 'react';
import { Button, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TerminalMessageRecord } from '@venue/domain';
import { useAuth } from '../../platform/auth/AuthProvider';
import { errorText } from '../../shared/errors';
import { terminalMessageColumns } from './terminalMessageColumns';
import { TerminalMessageDrawer } from './TerminalMessageDrawer';
import { useTerminalMessages } from './useTerminalMessages';
import { ListTable } from '../../shared/CardList';

/**
 * /management/terminal-messages (seed 000 §2, seed 001 §3 "Terminal
 * message"): messages the club's terminals show to clients; saving pushes
 * them to the connected terminals at once (server side).
 */
export function TerminalMessagesPage() {
  const { t } = useTranslation();
  const { data: me } = useAuth();
  const canEdit = me?.user.roleEditTerminalMessages === true;
  const query = useTerminalMessages();
  const [editing, setEditing] = useState<TerminalMessageRecord | 'new' | null>(null);
  const open = (m: TerminalMessageRecord | 'new') => setEditing(m);
  const columns = terminalMessageColumns(t, canEdit, open);

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
      <ListTable<TerminalMessageRecord>
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('terminalMessages.empty') }}
      />
      <TerminalMessageDrawer editing={editing} onClose={() => setEditing(null)} />
    </>
  );
}
