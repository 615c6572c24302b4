import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RoomsTab } from './RoomsTab';
import { WeekTab } from './WeekTab';
import './appointments.css';

/**
 * /management/bookings (issue 38, docs/appointments.md "The console"): the week of bookable slots
 * with the chosen day's bookings and waitlist (book a client from a slot, move, cancel, offers),
 * and the club's rooms and booking rules. For staff with roleManageBookings, as every booking route.
 */
export function BookingsPage() {
  const { t } = useTranslation();
  return (
    <div className="bookings" data-testid="bookings-page">
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.bookings')}</Typography.Title>
      </div>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'week', label: t('bookingConsole.tabs.week'), children: <WeekTab /> },
          { key: 'rooms', label: t('bookingConsole.tabs.rooms'), children: <RoomsTab /> },
        ]}
      />
    </div>
  );
}
