/** What a new installation needs, in the order an administrator does it, each with the screen that does it. */
export const SETUP_STEPS = [
  { key: 'company', label: 'Add the shipping line (company)', path: '/companies' },
  { key: 'location', label: 'Add a location', path: '/locations' },
  { key: 'head_office', label: 'Add the head-office branch', path: '/branches' },
  { key: 'route', label: 'Add a route', path: '/routes' },
  { key: 'users', label: 'Add users: custodian, branch staff, couriers', path: '/users' },
  { key: 'pads', label: 'Generate the first pads', path: '/pads' },
] as const;
