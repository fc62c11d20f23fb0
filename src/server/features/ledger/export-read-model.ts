import { certificateListColumns } from '../../../shared/list-columns.ts';
import type { CertificateListQuery } from '../../../shared/schemas/ledger.ts';
import { listExport } from '../../lib/export.ts';
import { certificateSource } from './certificates.ts';

/** The RAAF certificates list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const certificateListExport = listExport({
  kind: 'certificates',
  fileBase: 'Certificates',
  columns: certificateListColumns,
  source: (ctx, actor, query: CertificateListQuery) => certificateSource(ctx, actor, query),
});
