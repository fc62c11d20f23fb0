import { asc, desc, ilike } from 'drizzle-orm';
import type { Location, LocationsQuery } from '../../../shared/schemas/locations.ts';
import type { Conn } from '../../db/client.ts';
import { branches, locations } from '../../db/schema/reference.ts';
import { likePattern } from '../../lib/pagination.ts';
import { refCount, referenceRepo } from '../../lib/reference-data.ts';
import { sortedBy } from '../../lib/sorting.ts';

/** Locations newest first, matching the name search (trigram index); by name in the Branch form's select. */
export const { page, streamList, all, find, insert, update, remove, nameTaken } = referenceRepo<typeof locations, Location, LocationsQuery>(
  {
    table: locations,
    rows: (conn) => conn.select({ id: locations.id, name: locations.name }).from(locations).$dynamic(),
    ids: (conn) => conn.select({ id: locations.id }).from(locations).$dynamic(),
    where: (q) => (q.search ? ilike(locations.name, likePattern(q.search)) : undefined),
    order: (q) => sortedBy({ name: locations.name }, q, locations.id, [desc(locations.id)]),
    allOrder: [asc(locations.name), asc(locations.id)],
  },
);

export const branchCount = (conn: Conn, id: number) => refCount(conn, branches.location_id, id);
