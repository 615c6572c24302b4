import { UserRole, type PermissionFlag, type User } from '@venue/domain';
import { EDITABLE_FLAGS } from './permissionGroups';

/** The user form's values (seed 001 §3 "User"); the permission flags live beside the form. */
export interface UserFormValues {
  username: string;
  password: string;
  name: string;
  language: 'he' | 'en';
  isAdmin: boolean;
  role: number;
  employeePositionId: number | null;
  disabled: boolean;
  /** The editor's own current password: asked when users change their own password (docs/security.md "Sessions"). */
  currentPassword?: string;
}

/** The checked permission flags of the editor (seed 001 §6); a missing flag is unchecked. */
export type PermissionChecks = Partial<Record<PermissionFlag, boolean>>;

/** Name of a role number in `UserRole` (for `userRole.<name>` texts); unknown numbers read REGULAR. */
export function roleName(v: number): string {
  return Object.entries(UserRole).find(([, n]) => n === v)?.[0] ?? 'REGULAR';
}

/** A user's form values; a new user is a Hebrew-speaking regular user with no position. */
export function userFormValues(user: User | null): UserFormValues {
  return {
    username: user?.username ?? '',
    password: '',
    name: user?.name ?? '',
    language: (user?.language as 'he' | 'en' | undefined) ?? 'he',
    isAdmin: user?.isAdmin ?? false,
    role: user?.role ?? UserRole.REGULAR,
    employeePositionId: user?.employeePositionId ?? null,
    disabled: user?.disabled ?? false,
  };
}

/** Every editable flag set to one value (the "select all" / "remove all" buttons). */
export function allPermissions(value: boolean): PermissionChecks {
  return Object.fromEntries(EDITABLE_FLAGS.map((f) => [f, value]));
}

/**
 * The request body of UserInput (new user: the password is required) or
 * UserPatch (existing user: an empty password leaves it unchanged; a new
 * one goes with the current password when it was asked). Every editable flag
 * is sent, unchecked ones as false.
 */
export function userRequestBody(v: UserFormValues, perms: PermissionChecks, isNew: boolean): Record<string, unknown> {
  const permissions = Object.fromEntries(EDITABLE_FLAGS.map((f) => [f, perms[f] === true]));
  const base = {
    username: v.username,
    name: v.name ?? '',
    language: v.language,
    isAdmin: v.isAdmin,
    role: v.role,
    employeePositionId: v.employeePositionId ?? null,
    disabled: v.disabled,
    permissions,
  };
  if (isNew) return { ...base, password: v.password ?? '' };
  if (!v.password) return base;
  return { ...base, password: v.password, ...(v.currentPassword ? { currentPassword: v.currentPassword } : {}) };
}
