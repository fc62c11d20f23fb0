import type { ListExport } from '../lib/export.ts';

/**
 * The list exports an export worker can write, by the `kind` each ListExport names: each is loaded from its feature's
 * export-read-model.ts only when asked for, so a worker loads the one feature its list needs.
 */
const LIST_EXPORTS: Record<string, () => Promise<ListExport<unknown>>> = {
  pads: async () => (await import('../features/pads/export-read-model.ts')).padListExport,
  invoices: async () => (await import('../features/invoices/export-read-model.ts')).invoiceListExport,
  custodies: async () => (await import('../features/custodies/export-read-model.ts')).inTransitExport,
  incidents: async () => (await import('../features/incidents/export-read-model.ts')).incidentListExport,
  certificates: async () => (await import('../features/ledger/export-read-model.ts')).certificateListExport,
  reports: async () => (await import('../features/reports/export-read-model.ts')).reportListExport,
  users: async () => (await import('../features/users/export-read-model.ts')).userListExport,
  branches: async () => (await import('../features/branches/export-read-model.ts')).branchListExport,
  companies: async () => (await import('../features/companies/export-read-model.ts')).companyListExport,
  locations: async () => (await import('../features/locations/export-read-model.ts')).locationListExport,
  routes: async () => (await import('../features/routes/export-read-model.ts')).routeListExport,
};

export const LIST_EXPORT_KINDS = Object.keys(LIST_EXPORTS);

/** The list export of this kind; an unknown kind is a route naming a ListExport the registry lacks. */
export async function listExportOf(kind: string): Promise<ListExport<unknown>> {
  const load = LIST_EXPORTS[kind];
  if (!load) throw new Error(`no list export "${kind}" in src/server/exports/registry.ts`);
  return load();
}
