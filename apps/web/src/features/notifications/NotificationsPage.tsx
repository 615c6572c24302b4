import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OutboxTab } from './OutboxTab';

/**
 * /management/notifications (issue 37, docs/notifications.md): the club's outbox and delivery log
 * of notices and member sign-in codes; for the club's admins and the operator.
 */
export function NotificationsPage() {
  const { t } = useTranslation();
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.notifications')}</Typography.Title>
      </div>
      <Tabs
        destroyInactiveTabPane
        items={[{ key: 'outbox', label: t('notifications.tabs.outbox'), children: <OutboxTab /> }]}
      />
    </>
  );
}
