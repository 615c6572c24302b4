import { useMemo } from 'react';
import { NAV_ENTRIES, type NavEntry } from '@venue/domain';
import { useCan } from '../platform/auth/useCan';
import { REPORT_SCREENS } from '../features/reports/reportScreens';

/**
 * Screens this console implements. The visibility rule itself is the access
 * policy `can({open})` of @venue/domain (seed 000 §6); this list only filters out entries
 * whose screen does not exist yet ("only screens that work appear").
 */
export const IMPLEMENTED_NAV_KEYS: readonly string[] = [
  'dashboard',
  // The front desk (issue 35, docs/front-desk.md).
  'frontDesk',
  // The gate in an emergency (issue 36, docs/gate-safety.md).
  'gateSafety',
  'occupancy',
  // Immersion appointments: rooms, the week, bookings; the attendant's evening (docs/appointments.md).
  'bookings',
  'bookingEvening',
  'clients',
  'groups',
  'products',
  'settings',
  'calendar',
  'users',
  'schedules',
  'terminals',
  'terminalMessages',
  // Messages and incidents (docs/messages.md).
  'feedbackCategories',
  'incidents',
  // Notices to members and the outbox (docs/notifications.md).
  'notifications',
  'attendance',
  'employeePositions',
  // The operator's area (docs/operator.md).
  'operatorClubs',
  'operatorLicenses',
  'operatorCharges',
  'operatorTerminals',
  // Every report screen of the catalogue.
  ...REPORT_SCREENS.map((s) => s.navKey),
];

/** The navigation entries the signed-in user sees, in seed order. */
export function useNavigationEntries(): NavEntry[] {
  const allowed = useCan();
  return useMemo(
    () => NAV_ENTRIES.filter((e) => IMPLEMENTED_NAV_KEYS.includes(e.key) && allowed({ open: e.key })),
    [allowed],
  );
}
