import { useState } from 'react';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { readSession } from '../../platform/auth/authStorage';
import { useCan } from '../../platform/auth/useCan';
import { MessageBody } from './MessageBody';
import { postponedPopups, postponePopup, sessionMark } from './postponedPopups';
import { useMarkRead, useUnreadMessages } from './useMessages';

/**
 * Popup-kind messages (seed 000 §3 "message popup kinds"): each unread one
 * opens as a dialog after sign-in, oldest first, until the user marks it
 * read. "Later" closes it until the next sign-in — a reload or another tab
 * of the same sign-in keeps it closed (postponedPopups.ts). A popup that
 * arrives over the live feed opens at once.
 */
export function PopupMessages() {
  // The operator writes these messages; only club users get them as dialogs.
  const isOperator = useCan()({ operator: true });
  return isOperator ? null : <PopupDialog />;
}

function PopupDialog() {
  const { t } = useTranslation();
  const unread = useUnreadMessages();
  const mark = useMarkRead();
  const [session] = useState(() => sessionMark(readSession()?.token));
  const [later, setLater] = useState<Set<number>>(() => postponedPopups(session));
  const putOff = (id: number) => setLater(postponePopup(session, id));
  const popup = (unread.data ?? [])
    .filter((m) => m.kind === 'Popup' && !later.has(m.id))
    .sort((a, b) => a.publishAt.localeCompare(b.publishAt))[0];
  if (!popup) return null;
  return (
    <Modal
      open
      title={<span dir="auto">{popup.title}</span>}
      onCancel={() => putOff(popup.id)}
      data-testid="message-popup"
      footer={[
        <Button key="later" onClick={() => putOff(popup.id)} data-testid="message-popup-later">
          {t('messages.later')}
        </Button>,
        <Button
          key="read"
          type="primary"
          loading={mark.isPending}
          data-testid="message-popup-read"
          onClick={() => void mark.mutateAsync(popup.id).catch(() => putOff(popup.id))}
        >
          {t('messages.markRead')}
        </Button>,
      ]}
    >
      <MessageBody html={popup.body} />
    </Modal>
  );
}
