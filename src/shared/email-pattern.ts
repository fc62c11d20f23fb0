/** The sign-in and registration email rule, in a module without zod so the sign-in page's first load stays small. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
