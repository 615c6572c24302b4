import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TerminalMessageRecord } from '@venue/domain';
import { useAuth } from '../../platform/auth/AuthProvider';
import { terminalMessageColumns } from './terminalMessageColumns';
import { TerminalMessageDrawer } from './TerminalMessageDrawer';
import { useTerminalMessages } from './useTerminalMessages';
import { ResourceListPage } from '../../shared/ResourceListPage';

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
    <ResourceListPage<TerminalMessageRecord>
      title={t('nav.terminalMessages')}
      create={canEdit && { label: t('terminalMessages.new'), testId: 'message-new', onClick: () => open('new') }}
      rows={query.data?.items ?? []}
      query={query}
      emptyText={t('terminalMessages.empty')}
      table={{ columns }}
      dialogs={<TerminalMessageDrawer editing={editing} onClose={() => setEditing(null)} />}
    />
  );
}
