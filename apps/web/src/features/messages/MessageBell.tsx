import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { INBOX_ROUTE } from './routes';
import { useInboxLive, useUnreadMessages } from './useMessages';

/**
 * The header's bell: the user's unread global messages, live (a message
 * published to the club arrives over /api/live and refreshes the count).
 */
export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useInboxLive();
  const unread = useUnreadMessages();
  const count = unread.data?.length ?? 0;
  const label = t('messages.bell', { count });
  return (
    <Tooltip title={label}>
      <Badge count={count} size="small" overflowCount={99} data-testid="message-count" data-count={count}>
        <Button
          size="small"
          type="text"
          icon={<BellOutlined />}
          aria-label={label}
          data-testid="message-bell"
          onClick={() => void navigate(INBOX_ROUTE)}
        />
      </Badge>
    </Tooltip>
  );
}
