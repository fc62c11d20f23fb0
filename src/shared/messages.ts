/** Every user-facing message the spec words, so both sides say the same thing. */
export const MSG = {
  unauthenticated: 'Unauthenticated.',
  forbidden: 'You are not allowed to do this.',
  /** docs/design.md §5: a password an administrator chose is replaced before anything else. */
  mustChangePassword: 'Change the password you were given before you continue.',
  newPasswordSame: 'Choose a password different from the one you were given.',
  setPasswordLinkSent: 'User created; a link to set the password was e-mailed to them.',
  /** A screen the role may not open: said before going home. */
  screenForbidden: 'Your role cannot open that page, so you are back on your home screen.',
  notFound: 'Not found.',
  unexpected: 'An unexpected error occurred. Please try again.',
  /** A 401 while signed in; the screen and its form stay as they were. */
  sessionEnded: 'Your session has ended. Please sign in again.',
  /** The request never reached the server. */
  noConnection: 'No connection. Your changes were not saved.',
  noConnectionRead: 'No connection. Could not load the latest data.',
  staleList: 'Could not refresh this list; it shows what was loaded before.',
  /** docs/design.md §2 offline: what a list or picker says when the network is gone. */
  offline: 'No connection',
  offlineSavedAt: (time: string) => `No connection — showing what was saved at ${time}`,
  offlineBanner: 'You are offline. Screens show what was saved; actions wait on this phone and are sent when the network returns.',
  waitingToSend: 'waiting to send',
  /** The toast of a queued action once the server took it: "Sent: hand-over of Return #12 to Carlo Reyes". */
  sentFromQueue: (label: string) => `Sent: ${label.charAt(0).toLowerCase()}${label.slice(1)}`,
  queuedOffline: 'No connection: saved on this phone, waiting to send',
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
  currentPasswordRequired: 'Enter your current password to change your email',
  currentPasswordWrong: 'The current password is incorrect',
  profileUpdateFailed: 'Failed to update profile. Please check the form for errors.',
  resetPasswordFailed: 'Failed to reset password',
  confirmResetOwnPassword: 'Are you sure you want to reset your password?',

  emptyQr: 'Empty QR code detected',
  qrNotNumber: 'Invalid QR code format: Not a number',
  qrInvalidBadge: 'Invalid QR code format. Please scan a valid user QR code.',
  /** docs/design.md §2 offline: a badge of someone not in the saved list cannot be told valid or not without network. */
  badgeUncheckable: 'No connection: this badge cannot be checked now',
  badgeScannedOffline: (name: string) => `Scanned: ${name} (no connection: the badge is checked when the hand-over is sent)`,
  badgeNotRecognised: 'This badge is not valid. Please scan the user\u2019s current QR code.',
  cameraDenied: 'Camera access was denied. Please allow camera access and try again.',
  cameraMissing: 'No camera found on this device.',
  cameraFailed: 'Failed to start camera. Please ensure camera permissions are granted.',

  seriesToGreater: 'Series To must be greater than Series From',
  generatingPads: 'Generating pads...',
  noPads: 'No pads',
  updatingPad: 'Updating pad...',
  deletingPad: 'Deleting pad...',
} as const;

export const required = (label: string) => `${label} is required`;
export const invalidFormat = (label: string) => `Invalid ${label} format`;
export const minLengthMessage = (label: string, n: number) => `${label} must be at least ${n} characters`;
export const confirmDelete = (thing: string) => `Are you sure you want to delete this ${thing}?`;
export const deleteFailed = (thing: string) => `Error deleting ${thing}`;

/** docs/spec.md §2 and §8 wording for the administration screens (users, roles, companies, routes, locations, branches). */
export const ADMIN_MSG = {
  noUsers: 'No users',
  noRoles: 'No roles',
  noCompanies: 'No companies',
  noRoutes: 'No routes',
  noLocations: 'No locations',
  noBranches: 'No branches',
  deleteUserFailed: 'Error deleting user',
  resetUserPasswordFailed: 'Error resetting user password',
  badgeCardFailed: 'Could not open the badge card. Please try again.',
  toggleUserFailed: 'An error occurred while toggling user activation. Please try again.',
  confirmResetUserPassword: 'Are you sure you want to reset password of this user?',
  confirmToggleUser: "Are you sure you want to change this user's status?",
  userActivated: 'User activated successfully',
  userDeactivated: 'User deactivated successfully',
  cannotDeleteSelf: 'You cannot delete your own account. Ask another administrator.',
  cannotDeactivateSelf: 'You cannot deactivate your own account. Ask another administrator.',
  cannotChangeOwnRole: 'You cannot change your own role. Ask another administrator.',
  cannotChangeOwnStatus: 'You cannot deactivate your own account. Ask another administrator.',
  nameTaken: 'The name has already been taken.',
  routeNameTaken: 'This company already has a route with this name.',
  selectedInvalid: (label: string) => `The selected ${label.toLowerCase()} does not exist.`,
  created: (thing: string) => `${thing} created successfully`,
  updated: (thing: string) => `${thing} updated successfully`,
  deleted: (thing: string) => `${thing} deleted successfully`,
  creating: (thing: string) => `Creating ${thing}...`,
  updating: (thing: string) => `Updating ${thing}...`,
  deleting: (thing: string) => `Deleting ${thing}...`,
  resettingPassword: 'Resetting password...',
  togglingUser: 'Toggling user activation...',
  /** docs/design.md §10 custody guards: names what the user holds and carries, and the way to hand it on. */
  custodyHeld: (change: 'deactivate' | 'delete' | 'role' | 'branch', pads: string[], invoices: number[]) => {
    const list = (items: string[]) =>
      items.length > 10 ? `${items.slice(0, 10).join(', ')} and ${items.length - 10} more` : items.join(', ');
    const held = [
      pads.length > 0 ? `holds ${pads.length === 1 ? 'pad' : 'pads'} ${list(pads)}` : null,
      invoices.length > 0
        ? `carries in-transit ${invoices.length === 1 ? 'invoice' : 'invoices'} ${list(invoices.map((id) => `#${id}`))}`
        : null,
    ].filter((part) => part !== null);
    const what = { deactivate: 'deactivated', delete: 'deleted', role: 'given another role', branch: 'moved to another branch' }[change];
    const ways = [pads.length > 0 ? 'Return or Turnover the pads' : null, invoices.length > 0 ? 'Hand Over the invoices' : null].filter(
      (part) => part !== null,
    );
    return `This user ${held.join(' and ')}, so the user cannot be ${what}. ${ways.join(' and ')} first.`;
  },
} as const;
