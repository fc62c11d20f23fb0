import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Route, RoutesQuery } from '../../../shared/schemas/routes.ts';
import { companies } from '../../db/schema/reference.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { invalid } from '../../lib/errors.ts';
import { referenceService, rowExists } from '../../lib/reference-data.ts';
import * as repo from './repo.ts';

type RouteValues = { company_id: number; name: string; tin: string };

/**
 * The Routes screen (search on route name or TIN in SQL) and the Route selects of pads and invoices. A route belongs to
 * an existing company, whose route names are unique; its pads keep pointing at it through edits, and once pads or
 * invoices use it, it cannot be deleted: receipt history must keep its route.
 */
export const { list, all, create, update, remove, listSource } = referenceService<Route, RoutesQuery, RouteValues>(repo, {
  notFound: 'Route not found.',
  async check(conn, input, id) {
    if (!(await rowExists(conn, companies.id, input.company_id))) throw invalid('company_id', ADMIN_MSG.selectedInvalid('Company'));
    if (await repo.nameTaken(conn, input.company_id, input.name, id)) throw invalid('name', ADMIN_MSG.routeNameTaken);
  },
  async refusal(conn, row) {
    const counts = await repo.usage(conn, row.id);
    const used = countPhrase([
      [counts.pads, 'pad', 'pads'],
      [counts.invoices, 'invoice', 'invoices'],
    ]);
    return used ? `${used.text} ${used.plural ? 'use' : 'uses'} this route, so it cannot be deleted. Edit the route instead.` : null;
  },
  referenced: 'Pads or invoices use this route, so it cannot be deleted. Edit the route instead.',
});
