import { z } from 'zod';
import { MSG, required } from '../messages.ts';
import { EMAIL_PATTERN } from '../email-pattern.ts';
import {
  LETTERS_AND_SPACES,
  MOBILE_PATTERN,
  PROFILE_EMAIL_PATTERN,
  STRONG_PASSWORD,
  emailField,
  optionalText,
  requiredText,
  text,
} from './common.ts';
import { namedRef } from './responses.ts';

const strongPassword = (label: string, message: string) => requiredText(label, 128).regex(STRONG_PASSWORD, message);

export const registrationSchema = z
  .object({
    first_name: requiredText('First name'),
    middle_name: optionalText('Middle name'),
    last_name: requiredText('Last name'),
    email: emailField(),
    mobile_number: requiredText('Mobile number', 32).regex(MOBILE_PATTERN, MSG.invalidMobile),
    password: strongPassword('Password', MSG.strongPassword),
    password_confirmation: strongPassword('Confirm password', MSG.strongPassword),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: MSG.passwordsDoNotMatch,
    path: ['password_confirmation'],
  });
export type RegistrationInput = z.input<typeof registrationSchema>;

export const loginSchema = z.object({
  email: requiredText('Email')
    .regex(EMAIL_PATTERN, MSG.invalidEmail)
    .transform((v) => v.toLowerCase()),
  password: z
    .string({ error: required('Password') })
    .min(1, required('Password'))
    .min(8, 'Password must be at least 8 characters')
    .max(128, 'Password may not be longer than 128 characters'),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({
  email: requiredText('Email')
    .regex(EMAIL_PATTERN, MSG.validEmailAddress)
    .transform((v) => v.toLowerCase()),
});

export const updatePasswordSchema = z
  .object({
    token: requiredText('Token', 200),
    password: strongPassword('New Password', MSG.strongPasswordReset),
    password_confirmation: requiredText('Confirm Password', 128),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: MSG.confirmDoesNotMatch,
    path: ['password_confirmation'],
  });

/** Replacing a password an administrator chose (docs/design.md §5), with the one given as proof. */
export const changePasswordSchema = z
  .object({
    current_password: requiredText('Current Password', 128),
    password: strongPassword('New Password', MSG.strongPasswordReset),
    password_confirmation: requiredText('Confirm Password', 128),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: MSG.confirmDoesNotMatch,
    path: ['password_confirmation'],
  })
  .refine((v) => v.password !== v.current_password, { message: MSG.newPasswordSame, path: ['password'] });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

const personName = (label: string) => requiredText(label).regex(LETTERS_AND_SPACES, MSG.lettersAndSpaces);

export const profileSchema = z.object({
  first_name: personName('First Name'),
  last_name: personName('Last Name'),
  email: emailField('Email', MSG.invalidEmail, PROFILE_EMAIL_PATTERN),
  /** Needed only when the e-mail changes (the server decides); the form shows it then. */
  current_password: text('Current password').max(128).optional(),
});
export type ProfileInput = z.input<typeof profileSchema>;

/** What the server says about the signed-in user (login, user-profile); no hash or token ever. */
export const sessionUser = z
  .object({
    id: z.number(),
    first_name: z.string(),
    middle_name: z.string().nullable(),
    last_name: z.string(),
    full_name: z.string(),
    email: z.string(),
    contact_number: z.string().nullable(),
    role_id: z.number().nullable(),
    branch_id: z.number().nullable(),
    user_status_id: z.number(),
    role: namedRef.nullable(),
    branch: namedRef.nullable(),
    status: namedRef.nullable(),
  })
  .meta({ id: 'User' });
export type SessionUser = z.infer<typeof sessionUser>;

/** A new session, with APP_TIMEZONE: the zone every screen shows its dates and times in (docs/design.md §8). */
export const loginResponse = z.object({
  user: sessionUser,
  token: z.string(),
  time_zone: z.string(),
  /** The password was chosen by an administrator (or generated): every other call is refused until it is changed. */
  must_change_credentials: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const registeredResponse = loginResponse.extend({ message: z.string() });
export const passwordUpdatedResponse = z.object({ message: z.string(), role_id: z.number().nullable() });
export const profileUpdatedResponse = z.object({ message: z.string(), userProfile: sessionUser });
export const badgeResponse = z.object({ qr_code: z.string() }).meta({ id: 'BadgeQrCode' });
