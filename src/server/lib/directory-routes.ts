import type { z } from 'zod';
import { ADMIN_MSG } from '../../shared/messages.ts';
import { can } from '../../shared/permissions.ts';
import { idParam, type ExportFormat, type Paginated } from '../../shared/schemas/common.ts';
import {
  created,
  exportableResponse,
  listResponse,
  messageResponse,
  ok,
  pageResponse,
  savedResponse,
} from '../../shared/schemas/responses.ts';
import type { App } from '../app-type.ts';
import type { AppContext } from '../context.ts';
import { authorize, currentUser } from './auth.ts';
import { sendListExport, type ListExport } from './export.ts';

/** What a directory feature's service offers its create, update and delete routes. */
export interface DirectoryWrites<Row, Values> {
  create(ctx: AppContext, values: Values): Promise<Row>;
  update(ctx: AppContext, id: number, values: Values): Promise<Row>;
  remove(ctx: AppContext, id: number): Promise<void>;
}

/** What a directory feature's service offers its five routes. */
export interface DirectoryService<Row, Values, Query> extends DirectoryWrites<Row, Values> {
  all(ctx: AppContext): Promise<Row[]>;
  list(ctx: AppContext, query: Query): Promise<Paginated<Row>>;
}

/** A reference table's names and write schemas, enough for its create, update and delete routes. */
export interface DirectoryForm<Row, Values> {
  /** "Branch": the messages' and operation ids' singular. */
  noun: string;
  /** "branch": the paths' singular (`add-branch`). */
  path: string;
  /** "branches": the paths' plural (`get-branches`) and the document's tag. */
  pathPlural: string;
  form: z.ZodType<Values>;
  row: z.ZodType<Row>;
  service: DirectoryWrites<Row, Values>;
  /** The documented summaries where the table words them its own way (Roles: "Renames a role"). */
  summaries?: { update?: string; remove?: string };
}

/** One directory (branches, companies, locations, routes): its names, shared schemas, list export and service. */
export interface Directory<Row, Values, Query> extends DirectoryForm<Row, Values> {
  /** "Branches": the operation ids' plural. */
  plural: string;
  query: z.ZodType<Query & { format?: ExportFormat }>;
  /** The admin screen's export (the feature's export-read-model.ts). */
  export: ListExport<Query>;
  service: DirectoryService<Row, Values, Query>;
}

const admin = authorize((user) => can(user, 'administer'));

/**
 * The reference tables' routes (docs/spec.md §2, Companies to Branches): a full list for the forms' selects, the admin screen's page with
 * search and its export, and create, update and delete for administrators. One definition, so the four directories
 * cannot drift apart in paths, permissions, answers or documentation.
 */
export function directoryRoutes<Row, Values, Query>(app: App, ctx: AppContext, d: Directory<Row, Values, Query>) {
  const tags = [d.pathPlural];

  app.get(
    `/api/get-${d.pathPlural}`,
    {
      schema: { operationId: `list${d.plural}`, summary: `Lists all ${d.pathPlural}`, tags, response: ok(listResponse(d.row)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await d.service.all(ctx) }),
  );

  app.get(
    `/api/get-${d.pathPlural}-with-search`,
    {
      schema: {
        operationId: `search${d.plural}`,
        summary: `Lists ${d.pathPlural} a page at a time, with search, or exports all that match as CSV or .xlsx`,
        tags,
        querystring: d.query,
        response: ok(exportableResponse(pageResponse(d.row), `The ${d.pathPlural}`)),
      },
      onRequest: admin,
    },
    async (request, reply) => {
      // The Zod type provider cannot resolve a generic schema's output, so the casts name what `d.query` validated.
      const { format, ...query } = request.query as Query & { format?: ExportFormat };
      const rest = query as Query;
      if (format) return sendListExport(reply, ctx, format, d.export, currentUser(request), rest);
      return d.service.list(ctx, rest);
    },
  );

  directoryWriteRoutes(app, ctx, d);
}

/** The create, update and delete routes of a reference table, for administrators (Roles too, whose lists differ). */
export function directoryWriteRoutes<Row, Values>(app: App, ctx: AppContext, d: DirectoryForm<Row, Values>) {
  const tags = [d.pathPlural];
  const lower = d.noun.toLowerCase();
  // As in directoryRoutes: the bodies' casts name what `d.form` validated, which the type provider cannot resolve.

  app.post(
    `/api/add-${d.path}`,
    {
      schema: {
        operationId: `create${d.noun}`,
        summary: `Creates a ${lower}`,
        tags,
        body: d.form,
        response: created(savedResponse(d.row)),
      },
      onRequest: admin,
    },
    async (request, reply) =>
      // -- the route's body schema parsed it into Values before the handler runs.
      reply.status(201).send({ message: ADMIN_MSG.created(d.noun), data: await d.service.create(ctx, request.body as Values) }),
  );

  app.put(
    `/api/update-${d.path}/:id`,
    {
      schema: {
        operationId: `update${d.noun}`,
        summary: d.summaries?.update ?? `Updates a ${lower}`,
        tags,
        params: idParam,
        body: d.form,
        response: ok(savedResponse(d.row)),
      },
      onRequest: admin,
    },
    async (request) => ({
      message: ADMIN_MSG.updated(d.noun),
      // -- the route's body schema parsed it into Values before the handler runs.
      data: await d.service.update(ctx, request.params.id, request.body as Values),
    }),
  );

  app.delete(
    `/api/delete-${d.path}/:id`,
    {
      schema: {
        operationId: `delete${d.noun}`,
        summary: d.summaries?.remove ?? `Deletes a ${lower} that nothing refers to`,
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: admin,
    },
    async (request) => {
      await d.service.remove(ctx, request.params.id);
      return { message: ADMIN_MSG.deleted(d.noun) };
    },
  );
}
