export const DEMO_PASSWORD = 'Demo@2026';

/** One account per role; the README lists them. */
export const DEMO_ACCOUNTS = [
  { role_id: 1, email: 'admin@padtrack-demo.ph', first_name: 'Andrea', last_name: 'Villanueva', branch: 'Head Office' },
  { role_id: 2, email: 'itadmin@padtrack-demo.ph', first_name: 'Marco', last_name: 'Dizon', branch: 'Head Office' },
  { role_id: 3, email: 'custodian@padtrack-demo.ph', first_name: 'Liza', last_name: 'Fernandez', branch: 'Head Office' },
  { role_id: 4, email: 'branchcustodian@padtrack-demo.ph', first_name: 'Ramon', last_name: 'Aquino', branch: 'Calapan Terminal' },
  { role_id: 5, email: 'branchhead@padtrack-demo.ph', first_name: 'Grace', last_name: 'Mendoza', branch: 'Batangas Terminal' },
  { role_id: 6, email: 'supervisor@padtrack-demo.ph', first_name: 'Paolo', last_name: 'Santiago', branch: 'Calapan Terminal' },
  { role_id: 7, email: 'ticketing@padtrack-demo.ph', first_name: 'Joy', last_name: 'Castillo', branch: 'Batangas Terminal' },
  { role_id: 8, email: 'accounting@padtrack-demo.ph', first_name: 'Teresa', last_name: 'Lim', branch: 'Head Office' },
  { role_id: 9, email: 'auditor@padtrack-demo.ph', first_name: 'Victor', last_name: 'Ramos', branch: 'Head Office' },
  { role_id: 10, email: 'driver@padtrack-demo.ph', first_name: 'Nestor', last_name: 'Bautista', branch: 'Batangas Terminal' },
  { role_id: 11, email: 'messenger@padtrack-demo.ph', first_name: 'Carlo', last_name: 'Reyes', branch: 'Head Office' },
] as const;
