import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { forgotPasswordSchema, loginSchema, profileSchema, registrationSchema, updatePasswordSchema } from './accounts.ts';

const firstErrors = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) => {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[String(issue.path[0])] ??= issue.message;
  return errors;
};

const valid = {
  first_name: 'Ana',
  middle_name: '',
  last_name: 'Reyes',
  email: 'ana@example.com',
  mobile_number: '09171234567',
  password: 'Strong@123',
  password_confirmation: 'Strong@123',
};

describe('account schemas', () => {
  it('when registration is complete and correct, then it passes and an empty middle name becomes null', () => {
    const parsed = registrationSchema.parse(valid);
    expect(parsed.middle_name).toBeNull();
  });

  it('when registration fields break the rules, then the spec messages', () => {
    const errors = firstErrors(
      registrationSchema.safeParse({
        ...valid,
        first_name: ' ',
        last_name: '',
        email: 'x@',
        mobile_number: '0917123456',
        password: 'password1',
      }),
    );
    expect(errors).toMatchObject({
      first_name: 'First name is required',
      last_name: 'Last name is required',
      email: MSG.invalidEmail,
      mobile_number: MSG.invalidMobile,
      password: MSG.strongPassword,
    });
  });

  it('when the password has a character outside the allowed set, then it is refused', () => {
    expect(
      firstErrors(registrationSchema.safeParse({ ...valid, password: 'Strong@123#', password_confirmation: 'Strong@123#' })).password,
    ).toBe(MSG.strongPassword);
  });

  it('when the confirmation differs, then "Passwords do not match"', () => {
    expect(firstErrors(registrationSchema.safeParse({ ...valid, password_confirmation: 'Strong@124' })).password_confirmation).toBe(
      MSG.passwordsDoNotMatch,
    );
  });

  it('when signing in, then email and an 8-character password are required', () => {
    expect(firstErrors(loginSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(firstErrors(loginSchema.safeParse({ email: 'a@b.co', password: 'short' })).password).toBe(
      'Password must be at least 8 characters',
    );
  });

  it('when asking for a reset link, then a bad e-mail reads "Please enter a valid email address"', () => {
    expect(firstErrors(forgotPasswordSchema.safeParse({ email: 'nope' })).email).toBe(MSG.validEmailAddress);
  });

  it('when choosing a new password, then the strong rule and "Confirm password does not match the password"', () => {
    expect(firstErrors(updatePasswordSchema.safeParse({ token: 't', password: 'weak', password_confirmation: 'weak' })).password).toBe(
      MSG.strongPasswordReset,
    );
    expect(
      firstErrors(updatePasswordSchema.safeParse({ token: 't', password: 'Strong@123', password_confirmation: 'Strong@12' }))
        .password_confirmation,
    ).toBe(MSG.confirmDoesNotMatch);
  });

  it('when the profile is saved, then names allow only letters and spaces and the e-mail needs a 2-4 letter domain', () => {
    expect(firstErrors(profileSchema.safeParse({ first_name: 'Ana1', last_name: 'Reyes', email: 'ana@example.com' })).first_name).toBe(
      MSG.lettersAndSpaces,
    );
    expect(firstErrors(profileSchema.safeParse({ first_name: 'Ana', last_name: 'Reyes', email: 'ana@example.museum' })).email).toBe(
      MSG.invalidEmail,
    );
    expect(profileSchema.safeParse({ first_name: 'Ana Marie', last_name: 'Reyes', email: 'ana.m@example.ph' }).success).toBe(true);
  });
});
