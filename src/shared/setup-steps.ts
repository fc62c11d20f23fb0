/** What a new installation needs, in the order an administrator does it, each with the Add form that does it. */
export const SETUP_STEPS = [
  { key: 'company', label: 'Add the shipping line (company)', path: '/companies?add=1' },
  { key: 'location', label: 'Add a location', path: '/locations?add=1' },
  { key: 'head_office', label: 'Add the head-office branch', path: '/branches?add=1' },
  { key: 'route', label: 'Add a route', path: '/routes?add=1' },
  { key: 'users', label: 'Add users: custodian, branch staff, couriers', path: '/users?add=1' },
  { key: 'pads', label: 'Generate the first pads', path: '/pads?add=1' },
] as const;
