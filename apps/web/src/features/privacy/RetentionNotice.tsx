import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { addDays, contract, formatDate, isoDate, JERUSALEM, localParts } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useRetention } from './usePrivacy';

/**
 * Said over an entrance report whose period starts before the club's retention horizon (issue 39,
 * docs/privacy.md "Retention"): the days before it show their daily counts in the totals, but no
 * rows — so an empty table there means "past retention", not "no entrances". In visitor mode
 * (docs/privacy.md "Visitor mode") it says that entrances are kept per person only for the
 * decision window, over every period: the rows shown are those of the last hours only.
 */
export function RetentionNotice({ from }: { from: string }) {
  const { t } = useTranslation();
  const q = useRetention();
  const horizon = q.data?.entranceDetailFrom;
  if (q.data?.visitorMode)
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        data-testid="retention-notice"
        message={t('privacy.visitorModeNotice', { hours: q.data.visitorWindowHours })}
      />
    );
  if (!horizon || from >= horizon) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="retention-notice"
      message={t('privacy.pastRetention', { date: formatDate(horizon), days: q.data!.entranceDays })}
    />
  );
}

/** The booking reports (issue 38, docs/appointments.md "Reports"). */
const BOOKING_REPORTS = new Set(['bookings', 'noShows', 'roomUse', 'waitlist']);

/** Whether a report reads bookings, whose retention is the booking settings' `retentionDays`. */
export const isBookingReport = (id: string): boolean => BOOKING_REPORTS.has(id);

/**
 * Said over a booking report whose period starts before the bookings' retention horizon (today at
 * the club less the booking settings' `retentionDays`; docs/appointments.md "Reports"): the days
 * before it are counted from booking_counts — figures, no details (the no-show list shows no rows
 * for them).
 */
export function BookingRetentionNotice({ from }: { from: string }) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  const q = useQuery({
    queryKey: ['booking', 'settings'],
    queryFn: () => api.call(contract.appointments.settings, {}),
  });
  const days = q.data?.retentionDays;
  if (days == null) return null;
  const zone = club.location?.timeZone ?? JERUSALEM.timeZone;
  const p = localParts(new Date(), zone);
  const horizon = isoDate(addDays({ year: p.year, month: p.month, day: p.day }, -days));
  if (from >= horizon) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="retention-notice"
      message={t('privacy.bookingsPastRetention', { date: formatDate(horizon), days })}
    />
  );
}
