import { useState } from 'react';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/auth/useCan';
import { MessageBody } from './MessageBody';
import { useMarkRead, useUnreadMessages } from './useMessages';

/**
 * Popup-kind messages (seed 000 §3 "message popup kinds"): each unread one
 * opens as a dialog after sign-in, oldest first, until the user marks it
 * read. "Later" closes it for this session only; it opens again at the next
 * sign-in (this component is mounted once per signed-in session). A popup
 * that arrives over the live feed opens at once.
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
  const [later, setLater] = useState<Set<number>>(() => new Set());
  const popup = (unread.data ?? [])
    .filter((m) => m.kind === 'Popup' && !later.has(m.id))
    .sort((a, b) => a.publishAt.localeCompare(b.publishAt))[0];
  if (!popup) return null;
  return (
    <Modal
      open
      title={<span dir="auto">{popup.title}</span>}
      onCancel={() => setLater((s) => new Set(s).add(popup.id))}
      data-testid="message-popup"
      footer={[
        <Button key="later" onClick={() => setLater((s) => new Set(s).add(popup.id))}>
          {t('messages.later')}
        </Button>,
        <Button
          key="read"
          type="primary"
          loading={mark.isPending}
          data-testid="message-popup-read"
          onClick={() => void mark.mutateAsync(popup.id).catch(() => setLater((s) => new Set(s).add(popup.id)))}
        >
          {t('messages.markRead')}
        </Button>,
      ]}
    >
      <MessageBody html={popup.body} />
    </Modal>
  );
}
