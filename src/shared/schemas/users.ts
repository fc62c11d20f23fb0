import { z } from 'zod';
import { MSG } from '../messages.ts';
import { COURIER_ROLES } from '../permissions.ts';
import { sessionUser, type SessionUser } from './accounts.ts';
import { EMAIL_PATTERN } from '../email-pattern.ts';
import { LETTERS_AND_SPACES, PHONE_PATTERN, STRONG_PASSWORD, exportParam, listQuery, optionalText, sortParams } from './common.ts';
import { firstRuleText } from './admin-common.ts';
import { MAX_ID, optionalId, refId, refLookupId } from './fields.ts';
import { namedRef } from './responses.ts';

const personName = (label: string) => firstRuleText(label).regex(LETTERS_AND_SPACES, MSG.lettersAndSpaces);

/** docs/spec.md §5 "User form": the labels below are the ones the Add/Edit User modal shows. */
export const USER_LABELS = {
  first_name: 'First Name',
  middle_name: 'Middle Name',
  last_name: 'Last Name',
  contact_number: 'Contact Number',
  email: 'Email',
  password: 'Password',
  send_set_password_email: 'E-mail the user a link to set the password instead',
  branch_id: 'Branch',
  role_id: 'Role',
  user_status_id: 'Status',
} as const;

const userFields = {
  first_name: personName(USER_LABELS.first_name),
  middle_name: optionalText(USER_LABELS.middle_name).refine((v) => v === null || LETTERS_AND_SPACES.test(v), MSG.lettersAndSpaces),
  last_name: personName(USER_LABELS.last_name),
  contact_number: firstRuleText(USER_LABELS.contact_number, 32).regex(PHONE_PATTERN, MSG.invalidPhone),
  email: firstRuleText(USER_LABELS.email)
    .regex(EMAIL_PATTERN, MSG.invalidEmail)
    .transform((v) => v.toLowerCase()),
  branch_id: refId(USER_LABELS.branch_id),
  role_id: refId(USER_LABELS.role_id),
  user_status_id: refLookupId(USER_LABELS.user_status_id),
};

export const updateUserSchema = z.object(userFields);
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/** The password is asked for on create only; later changes go through the reset link. */
const firstPassword = firstRuleText(USER_LABELS.password, 128).regex(STRONG_PASSWORD, MSG.strongPassword);

/**
 * A new user gets a first password (changed at first sign-in) or, instead, an e-mail with a link to set one. The password
 * part is parsed on its own, so an empty form names a missing password together with the other missing fields.
 */
const firstPasswordPart = z
  .object({
    password: z.string().max(128).default(''),
    send_set_password_email: z.boolean().default(false),
  })
  .superRefine((values, ctx) => {
    if (values.send_set_password_email) return;
    const check = firstPassword.safeParse(values.password);
    if (!check.success) ctx.addIssue({ code: 'custom', path: ['password'], message: check.error.issues[0]?.message ?? MSG.strongPassword });
  });
export const createUserSchema = z.object(userFields).and(firstPasswordPart);
export type CreateUserInput = z.input<typeof createUserSchema>;

/** The Users columns the list sorts by. */
export const USER_SORTS = ['first_name', 'last_name', 'email', 'role', 'branch', 'status'] as const;
export const usersQuery = listQuery.extend({ ...sortParams(USER_SORTS), ...exportParam, role: optionalId });
export type UsersQuery = z.infer<typeof usersQuery>;

const roleList = z
  .union([z.string().max(200), z.array(z.string().max(20)).max(20)])
  .optional()
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : (value ?? '').split(',')).map((p) => p.trim()).filter((p) => p !== '');
    const ids = parts.map(Number);
    if (ids.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_ID)) {
      ctx.addIssue({ code: 'custom', message: 'Roles must be a comma-separated list of role ids' });
      return z.NEVER;
    }
    return ids.length > 0 ? [...new Set(ids)] : [...COURIER_ROLES];
  });

/** docs/spec.md §7 get-users-by-roles: the couriers (roles 10 and 11 unless told otherwise). */
export const usersByRolesQuery = z.object({ roles: roleList });

/** A user as every admin call returns it; the password hash never leaves the server. */
export const adminUser = sessionUser;
export type AdminUser = SessionUser;

/** A user offered in an "Assign to" or "Hand over to" select. */
export const assignableUser = z
  .object({
    id: z.number(),
    first_name: z.string(),
    middle_name: z.string().nullable(),
    last_name: z.string(),
    full_name: z.string(),
    role_id: z.number().nullable(),
    branch_id: z.number().nullable(),
    role: namedRef.nullable(),
    branch: namedRef.nullable(),
  })
  .meta({ id: 'AssignableUser' });
export type AssignableUser = z.infer<typeof assignableUser>;
