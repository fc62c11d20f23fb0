/** Every user-facing message the spec words, so both sides say the same thing. */
export const MSG = {
  unauthenticated: 'Unauthenticated.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not found.',
  unexpected: 'An unexpected error occurred. Please try again.',
  invalidData: 'The given data was invalid.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',

  invalidEmail: 'Invalid email format',
  invalidMobile: 'Invalid mobile number format',
  invalidPhone: 'Invalid phone number format',
  lettersAndSpaces: 'Only letters and spaces are allowed',
  strongPassword:
    'Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number, and one special character.',
  strongPasswordReset:
    'Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number, and one special character',
  passwordsDoNotMatch: 'Passwords do not match',
  confirmDoesNotMatch: 'Confirm password does not match the password',
  validEmailAddress: 'Please enter a valid email address',
  emailTaken: 'The email has already been taken.',

  loginFailed: 'Login failed. Please check your credentials.',
  invalidCredentials: 'These credentials do not match our records.',
  accountInactive: 'Your account is inactive. Please contact an administrator.',
  registrationFailed: 'Registration failed. Please try again.',
  logoutFailed: 'Logout failed',
  loggedOut: 'Logged out successfully',
  registered: 'Account created successfully',

  resetLinkSent: 'Password reset link sent successfully',
  resetLinkSentAlert: 'Password reset link has been sent to your email.',
  resetLinkSentToUser: "Password reset link has been sent to user's email.",
  sendResetLinkFailed: 'Failed to send reset link. Please try again.',
  passwordUpdated: 'Password updated successfully',
  invalidOrExpiredToken: 'Invalid or expired token',
  passwordUpdateError: 'An error occurred. Please try again.',

  profileUpdated: 'Profile updated successfully',
  profileUpdateFailed: 'Failed to update profile. Please check the form for errors.',
  resetPasswordFailed: 'Failed to reset password',
  confirmResetOwnPassword: 'Are you sure you want to reset your password?',

  emptyQr: 'Empty QR code detected',
  qrNotNumber: 'Invalid QR code format: Not a number',
  qrInvalidBadge: 'Invalid QR code format. Please scan a valid user QR code.',
  badgeNotRecognised: 'This badge is not valid. Please scan the user\u2019s current QR code.',
  cameraDenied: 'Camera access was denied. Please allow camera access and try again.',
  cameraMissing: 'No camera found on this device.',
  cameraFailed: 'Failed to start camera. Please ensure camera permissions are granted.',
} as const;

export const required = (label: string) => `${label} is required`;
export const invalidFormat = (label: string) => `Invalid ${label} format`;
export const minLengthMessage = (label: string, n: number) => `${label} must be at least ${n} characters`;
export const confirmDelete = (thing: string) => `Are you sure you want to delete this ${thing}?`;
export const deleteFailed = (thing: string) => `Error deleting ${thing}`;
