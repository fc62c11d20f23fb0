import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Location, LocationsQuery } from '../../../shared/schemas/locations.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { invalid } from '../../lib/errors.ts';
import { referenceService } from '../../lib/reference-data.ts';
import * as repo from './repo.ts';

/**
 * The Locations screen (searched and paged in SQL) and the Branch form's select. A location's name is unique; its
 * branches follow a rename, and while any stand at it the location cannot be deleted, so no branch loses its place.
 */
export const { list, all, create, update, remove, listSource } = referenceService<Location, LocationsQuery, { name: string }>(repo, {
  notFound: 'Location not found.',
  async check(conn, input, id) {
    if (await repo.nameTaken(conn, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
  },
  async refusal(conn, row) {
    const used = countPhrase([[await repo.branchCount(conn, row.id), 'branch', 'branches']]);
    if (!used) return null;
    return `${used.text} ${used.plural ? 'are' : 'is'} at this location. Move ${used.plural ? 'them' : 'it'} to another location first.`;
  },
  referenced: 'Branches are at this location. Move them to another location first.',
});
