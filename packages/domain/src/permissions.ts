/**
 * Per-user permission flags. The first group is the current-user record of
 * seed 000 §3 (names kept as the seed spells them, e.g. rolePaymentesReport);
 * the second group are the edit permissions listed in seed 001 §6.
 */
export const PERMISSION_FLAGS = [
  'roleIsAdmin',
  'roleViewDashboard',
  'roleViewClientsList',
  'roleEditClients',
  'roleManageClientMoney',
  'roleViewClientGroupList',
  'roleEditClientGroups',
  'roleViewTerminals',
  'roleEditTerminals',
  'roleViewTerminalMessages',
  'roleEditTerminalMessages',
  'roleViewGeneralSettings',
  'roleEditGeneralSettings',
  'rolePaymentesReport',
  'roleEntrancesReport',
  'roleEntrancesPaymentsReport',
  'rolePurchasesReport',
  'roleCashReport',
  'roleFinanicalReport',
  'roleDebtsReport',
  'roleProductsReport',
  'roleResetCashLevelsReport',
  'roleAutoOperationsReport',
  'roleViewAttendanceLogs',
  'roleManageAttendance',
  'roleEditEmployeePositions',
  /** The Jewish calendar screen and API (issue 14; not in the seed's list, docs/calendar.md "Access"). */
  'roleViewCalendar',
  /**
   * Admitting a client through a gate from the front desk, by the gate's own rules (issue 35;
   * docs/front-desk.md "Permissions"): not in the seed's list.
   */
  'roleCheckInClients',
  /**
   * Admitting a client the gate refuses, with a reason that is recorded (issue 35; docs/front-desk.md
   * "The override rule"): not in the seed's list.
   */
  'roleOverrideEntrance',
  /**
   * Opening every gate of the club at once and releasing it (evacuation; issue 36,
   * docs/gate-safety.md "Who may do it"): not in the seed's list.
   */
  'roleEmergencyOpenAll',
  /**
   * Locking every gate of the club and releasing it, and choosing who passes a lockdown
   * (issue 36, docs/gate-safety.md): not in the seed's list.
   */
  'roleLockdown',
  /**
   * Immersion appointments (issue 38; docs/appointments.md "Privacy"): rooms, slots, bookings, the
   * waitlist and the attendant's evening. Bookings are visible to no one without it.
   */
  'roleManageBookings',
  /** Full names on bookings; without it staff see first names only (docs/appointments.md). */
  'roleViewBookingNames',
  /**
   * The club's security officer (issue 39; docs/privacy.md "Who looked"): the access-log report,
   * a client's copy and erasure. Not in the seed's list.
   */
  'roleSecurityOfficer',
] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];
export type Permissions = Record<PermissionFlag, boolean>;

/** All flags set to `value`: the editor's select-all and remove-all (seed 001 §6). */
export function allPermissions(value: boolean): Permissions {
  return Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, value])) as Permissions;
}

/** A user may do what a flag allows when the flag is set or the user is an admin. */
export function hasPermission(
  user: { isAdmin: boolean; permissions: Partial<Permissions> },
  flag: PermissionFlag,
): boolean {
  return user.isAdmin || user.permissions[flag] === true;
}
