import { desc, eq, sql } from 'drizzle-orm';
import type { Paginated } from '../../../shared/schemas/common.ts';
import type { ImportKind, ImportListRow, ImportTotals } from '../../../shared/schemas/imports.ts';
import type { AppContext } from '../../context.ts';
import { imports } from '../../db/schema/imports.ts';
import { users } from '../../db/schema/users.ts';
import { offsetOf, paginated } from '../../lib/pagination.ts';
import { fullNameOf } from '../users/read-model.ts';

/** Issue 38: other uploads (replacement e-invoices) are read within the same bounds as a go-live import file. */
export { FileProblem, readImportFile, type FileRow } from './parse.ts';

/** GET imports: the past imports, newest first, with who ran each. */
export async function listImports(
  ctx: AppContext,
  q: { page: number; per_page: number; kind?: ImportKind },
): Promise<Paginated<ImportListRow>> {
  const conn = ctx.db;
  const where = q.kind ? eq(imports.kind, q.kind) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    conn
      .select({
        id: imports.id,
        kind: imports.kind,
        dry_run: imports.dry_run,
        applied: imports.applied,
        file_name: imports.file_name,
        totals: imports.totals,
        errors: imports.errors,
        created_at: imports.created_at,
        created_by: sql<string | null>`nullif(${fullNameOf(users)}, '')`,
      })
      .from(imports)
      .leftJoin(users, eq(users.id, imports.created_by))
      .where(where)
      .orderBy(desc(imports.id))
      .limit(q.per_page)
      .offset(offsetOf(q.page, q.per_page)),
    conn
      .select({ total: sql<number>`count(*)::int` })
      .from(imports)
      .where(where),
  ]);
  return paginated(
    rows.map((row) => ({
      id: row.id,
      // -- kind, totals and errors are written only from ImportKind, ImportTotals and the error list of the run.
      kind: row.kind as ImportKind,
      dry_run: row.dry_run,
      applied: row.applied,
      file_name: row.file_name,
      totals: JSON.parse(row.totals) as ImportTotals, // -- as above
      error_count: (JSON.parse(row.errors) as unknown[]).length, // -- as above
      created_by: row.created_by,
      created_at: row.created_at.toISOString(),
    })),
    total,
    q.page,
    q.per_page,
  );
}
