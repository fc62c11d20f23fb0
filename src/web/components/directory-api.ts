import type { ExportFormat } from '../../shared/schemas/common.ts';
import { api, type Paginated } from '../lib/api.ts';
import { viewParams } from '../lib/use-list-params.ts';
import type { ListArgs } from './crud-page.tsx';

/**
 * A reference table's calls (Companies to Branches and Roles, the paths of directoryRoutes on the server): its page
 * with search, the export of every row matching the list's search and filter (docs/design.md §10), create, update and
 * delete. `path` is the paths' singular ("branch"), `pathPlural` their plural ("branches"); `filterParam` names the
 * query parameter of the screen's Filter select (Company Type on Companies).
 */
export function directoryApi<Row, Input>(path: string, pathPlural: string, filterParam?: string) {
  const list = `get-${pathPlural}-with-search`;
  const filtered = (filter: string | null) => (filterParam ? { [filterParam]: filter } : {});
  return {
    page: ({ page, search, filter, perPage, sort, order }: ListArgs) =>
      api.get<Paginated<Row>>(list, { page, search, ...filtered(filter), ...viewParams({ perPage, sort, order }) }),
    file: ({ search, filter, perPage, sort, order }: ListArgs, format: ExportFormat) =>
      api.file(list, { search, ...filtered(filter), ...viewParams({ perPage, sort, order }), per_page: undefined, format }),
    create: (input: Input) => api.post<{ message: string; data: Row }>(`add-${path}`, input),
    update: (id: number, input: Input) => api.put<{ message: string; data: Row }>(`update-${path}/${id}`, input),
    remove: (id: number) => api.delete<{ message: string }>(`delete-${path}/${id}`),
  };
}
