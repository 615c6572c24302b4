import type { RouteAccess } from './contract/route.js';
import { UserLevel, UserRole } from './enums.js';
import { NAV_RULES, type NavContext } from './navigation.js';
import { NAV_SCREEN_DATA } from './nav-screens.js';
import type { PermissionFlag, Permissions } from './permissions.js';
import { TECHNICIAN_ACTIONS } from './terminal-actions.js';

/**
 * The one access policy (docs/security.md "One access policy"): who may open
 * each navigation entry, edit each area, send each terminal action and
 * receive each kind of live event. The server enforces it on every route and
 * socket it guards (a route declares `nav`, `edit` or `permission` in its
 * configuration); the console asks the same function through `useCan()`.
 * Nothing else decides access — no copy of a rule in a component.
 */

/** The caller as the policy sees it. */
export interface AccessContext {
  /** Effective flags: an admin has every flag (the server's `effectivePermissions`). */
  permissions: Partial<Permissions>;
  /** User role of seed 000 §3 (TECHNICIAN 4 may send technician-only terminal actions). */
  role: number;
  /** User level of seed 000 §3 (SuperUser 1 is the service operator). */
  level: number;
  /**
   * The club's facts the navigation rules read (seed 000 §6: club class,
   * settings, capacities). Needed only for `{open}`; without them an entry is
   * closed.
   */
  club?: Omit<NavContext, 'permissions'>;
}

/** Areas a user edits, each with the flag of seed 001 §6 that allows it. */
export const EDIT_FLAGS = {
  clients: 'roleEditClients',
  clientMoney: 'roleManageClientMoney',
  groups: 'roleEditClientGroups',
  schedules: 'roleEditClientGroups',
  terminals: 'roleEditTerminals',
  terminalMessages: 'roleEditTerminalMessages',
  settings: 'roleEditGeneralSettings',
  products: 'roleEditGeneralSettings',
  users: 'roleIsAdmin',
  attendance: 'roleManageAttendance',
  employeePositions: 'roleEditEmployeePositions',
} as const satisfies Record<string, PermissionFlag>;
export type EditArea = keyof typeof EDIT_FLAGS;

/** Kinds of event of the console's live feed (docs/live-feed.md). */
export type LiveKind = 'entrance' | 'terminal' | 'door' | 'cash' | 'screen';

/** One question to the policy. */
export type Access =
  | { open: keyof typeof NAV_RULES }
  | { edit: EditArea }
  | { flag: PermissionFlag }
  | { terminalAction: string }
  | { live: LiveKind }
  | { operator: true }
  | { route: RouteAccess };

/** Whether the caller is the service operator (user level SuperUser, seed 000 §3). */
function isOperator(c: AccessContext): boolean {
  return c.level === UserLevel.SuperUser;
}

/**
 * The questions a route's declared access asks (the server asks each of them
 * before the route runs, plugins/auth.ts): operator, permission flag, edit
 * area, navigation entry. None: any signed-in user of the club.
 */
export function routeAsks(access: RouteAccess): Access[] {
  const asks: Access[] = [];
  if (access.operator) asks.push({ operator: true });
  if (access.permission) asks.push({ flag: access.permission });
  if (access.edit) asks.push({ edit: access.edit });
  if (access.nav) asks.push({ open: access.nav });
  return asks;
}

/**
 * Whether the caller may open a navigation entry: the seed 000 §6 table, row
 * by row (NAV_RULES), and the access of every call the entry's screen makes
 * when it opens (NAV_SCREEN_DATA), so that no entry of the menu leads to a
 * screen the server refuses with 403 (issue 35).
 */
function mayOpen(c: AccessContext, key: string): boolean {
  const rule = NAV_RULES[key];
  if (!rule || !c.club) return false;
  if (!rule({ ...c.club, permissions: c.permissions, level: c.level })) return false;
  // A call that names this very entry (`nav: key`) asks what was just answered.
  return (NAV_SCREEN_DATA[key] ?? []).every((a) =>
    routeAsks({ ...a, nav: a.nav === key ? undefined : a.nav }).every((q) => can(c, q)),
  );
}

/**
 * Answers one access question.
 * - `{open: key}`: the navigation entry's rule of seed 000 §6 (flags, club settings, club class, capacities).
 * - `{edit: area}`: the area's edit flag of seed 001 §6 (EDIT_FLAGS).
 * - `{flag}`: the flag itself.
 * - `{terminalAction: name}`: editing terminals, and for the technician-only
 *   actions of seed 000 §6 / seed 001 §6 (check for updates, reload display)
 *   also role TECHNICIAN, a club admin or the operator.
 * - `{live: kind}`: entrance rows (client names) only to those who may open
 *   the dashboard or the entrance report; terminal, door and cash state to
 *   everyone of the club (the terminals list is open to all, seed 000 §6);
 *   a terminal's screen (remote view: client names of its last decision)
 *   only to those who may control terminals (roleEditTerminals).
 * - `{operator: true}`: the service operator only.
 * - `{route: access}`: what a route declares (contract entry `access`), every
 *   question of {@link routeAsks}; the console asks it before a call that not
 *   every user of a screen may make (the group list beside the clients).
 */
export function can(c: AccessContext, access: Access): boolean {
  const flag = (f: PermissionFlag) => c.permissions[f] === true;
  if ('route' in access) return routeAsks(access.route).every((q) => can(c, q));
  if ('open' in access) return mayOpen(c, access.open);
  if ('edit' in access) return flag(EDIT_FLAGS[access.edit]);
  if ('flag' in access) return flag(access.flag);
  if ('operator' in access) return isOperator(c);
  if ('terminalAction' in access) {
    if (!flag('roleEditTerminals')) return false;
    if (!(TECHNICIAN_ACTIONS as readonly string[]).includes(access.terminalAction)) return true;
    return c.role === UserRole.TECHNICIAN || flag('roleIsAdmin') || isOperator(c);
  }
  if (access.live === 'entrance') return mayOpen(c, 'dashboard') || mayOpen(c, 'entranceReport');
  if (access.live === 'screen') return flag('roleEditTerminals');
  return true;
}
