import { z } from 'zod';
import { MSG, required } from '../messages.ts';
import {
  EMAIL_PATTERN,
  LETTERS_AND_SPACES,
  MOBILE_PATTERN,
  PROFILE_EMAIL_PATTERN,
  STRONG_PASSWORD,
  emailField,
  optionalText,
  requiredText,
} from './common.ts';

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
  email: requiredText('Email').regex(EMAIL_PATTERN, MSG.invalidEmail).transform((v) => v.toLowerCase()),
  password: z
    .string({ error: required('Password') })
    .min(1, required('Password'))
    .min(8, 'Password must be at least 8 characters')
    .max(128, 'Password may not be longer than 128 characters'),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({
  email: requiredText('Email').regex(EMAIL_PATTERN, MSG.validEmailAddress).transform((v) => v.toLowerCase()),
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

const personName = (label: string) => requiredText(label).regex(LETTERS_AND_SPACES, MSG.lettersAndSpaces);

export const profileSchema = z.object({
  first_name: personName('First Name'),
  last_name: personName('Last Name'),
  email: emailField('Email', MSG.invalidEmail, PROFILE_EMAIL_PATTERN),
});
export type ProfileInput = z.input<typeof profileSchema>;

/** What the server says about the signed-in user (login, user-profile). */
export interface SessionUser {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  full_name: string;
  email: string;
  contact_number: string | null;
  role_id: number | null;
  branch_id: number | null;
  user_status_id: number;
  role: { id: number; name: string } | null;
  branch: { id: number; name: string } | null;
  status: { id: number; name: string } | null;
}

export interface LoginResponse {
  user: SessionUser;
  token: string;
}
