import { z } from 'zod';

/** Issue 14.15: what a new installation needs, in the order an administrator does it, each with the screen that does it. */
export const SETUP_STEPS = [
  { key: 'company', label: 'Add the shipping line (company)', path: '/companies' },
  { key: 'location', label: 'Add a location', path: '/locations' },
  { key: 'head_office', label: 'Add the head-office branch', path: '/branches' },
  { key: 'route', label: 'Add a route', path: '/routes' },
  { key: 'users', label: 'Add users: custodian, branch staff, couriers', path: '/users' },
  { key: 'pads', label: 'Generate the first pads', path: '/pads' },
] as const;

export type SetupStepKey = (typeof SETUP_STEPS)[number]['key'];

/** Which steps are done: each is true once the installation has at least one of that thing. */
export const setupStatus = z.object({
  company: z.boolean(),
  location: z.boolean(),
  head_office: z.boolean(),
  route: z.boolean(),
  users: z.boolean(),
  pads: z.boolean(),
});
export type SetupStatus = z.infer<typeof setupStatus>;
