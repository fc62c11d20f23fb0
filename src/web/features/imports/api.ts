import type { ImportKind, ImportListRow, ImportResult } from '../../../shared/schemas/imports.ts';
import { api, ApiError, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { sessionStore } from '../../lib/session.ts';

/** POST imports; a file with errors answers 422 with the same body, which the screen shows as the result. */
async function run(kind: ImportKind, dryRun: boolean, file: File): Promise<{ message: string; data: ImportResult }> {
  const form = new FormData();
  form.set('kind', kind);
  form.set('dry_run', String(dryRun));
  form.set('file', file);
  const session = sessionStore.get();
  const response = await fetch('/api/imports', {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...(session?.token ? { Authorization: `Bearer ${session.token}` } : {}),
    },
    credentials: 'include',
    body: form,
  });
  // -- the import route's answer or error body; its schema fixes this shape.
  const body = (await response.json().catch(() => ({}))) as { message?: string; data?: ImportResult; errors?: Record<string, string[]> };
  if (body.data) return { message: body.message ?? '', data: body.data };
  throw new ApiError(response.status, body.message ?? 'The import failed', body.errors ?? {});
}

export const importApi = {
  run,
  list: (page: number) => api.get<Paginated<ImportListRow>>('imports', { page, per_page: 10 }),
  template: (kind: ImportKind) => api.file(`imports/templates/${kind}`),
};

export const importQueries = {
  list: (page: number) => ({ queryKey: queryKeys.imports.of({ page }), queryFn: () => importApi.list(page) }),
};
