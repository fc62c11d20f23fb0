import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../shared/schemas/imports.ts';
import { ATTACHMENT_KINDS } from '../shared/schemas/incidents.ts';
import { OUTCOME_REASONS } from '../shared/schemas/pads.ts';
import { ERROR_TABLE } from '../shared/schemas/responses.ts';
import { createTestApp, type TestApp } from './test/test-app.ts';

interface Media {
  schema?: Record<string, unknown>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
  responses: Record<string, { description?: string; content?: Record<string, Media> }>;
}
interface Document {
  openapi: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The shared schemas that are models: each must be one named component, referred to where it is used. */
const MODELS = [
  'Pad',
  'GeneratedPads',
  'InvoiceRow',
  'Invoice',
  'InvoicePage',
  'InvoicePad',
  'InvoicePadLink',
  'InvoiceActivity',
  'AssignedUser',
  'CourierCheck',
  'PersonRef',
  'RouteRef',
  'User',
  'AssignableUser',
  'BadgeQrCode',
  'Role',
  'Company',
  'Route',
  'Branch',
  'Location',
  'NamedRef',
  'Report',
  'ReportPreviewLink',
  'SignedLink',
  'Raaf',
  'RaafRouteRow',
  'RaafSummary',
  'RaafRollup',
  'RaafCertificate',
  'RaafCertificateRef',
  'PadHistory',
  'PadEvent',
  'PadRef',
  'Holder',
  'ReceiptFinding',
  'Dashboard',
  'MyActions',
  'MyActionGroup',
  'MyActionItem',
  'SetupStatus',
  'Health',
  'Message',
  'Error',
];

const run = promisify(execFile);
let t: TestApp;
let doc: Document;
let operations: Array<{ key: string; method: string; path: string; operation: Operation }>;

beforeAll(async () => {
  t = await createTestApp();
  const served = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(served.statusCode).toBe(200);
  doc = served.json();
  operations = Object.entries(doc.paths).flatMap(([route, methods]) =>
    Object.entries(methods)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${route}`, method, path: route, operation })),
  );
});
afterAll(async () => {
  await t.close();
});

const op = (key: string) => {
  const found = operations.find((entry) => entry.key === key);
  if (!found) throw new Error(`no operation ${key}`);
  return found.operation;
};
const refOf = (media: Media | undefined) => JSON.stringify(media?.schema ?? {});

describe('the OpenAPI document', () => {
  it('when any route is read, then it has a camelCase operationId and a one-line summary from its definition, and no two operationIds are the same', () => {
    expect(operations.length).toBeGreaterThan(80);
    const unnamed = operations
      .filter(({ operation }) => !operation.operationId || !/^[a-z][a-zA-Z0-9]+$/.test(operation.operationId))
      .map(({ key }) => key);
    const unsummarised = operations
      .filter(({ operation }) => !operation.summary || operation.summary.includes('\n') || operation.summary.length > 120)
      .map(({ key }) => key);
    expect(unnamed).toEqual([]);
    expect(unsummarised).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(op('GET /api/get-pads').operationId).toBe('listPads');
    expect(op('POST /api/login').operationId).toBe('login');
  });

  it('when the models are read, then each is one named component, referred to by $ref, and no component goes unused', () => {
    const names = Object.keys(doc.components.schemas);
    expect(MODELS.filter((model) => !names.includes(model))).toEqual([]);
    expect(refOf(op('GET /api/get-pads').responses['200'].content?.['application/json'])).toContain('"#/components/schemas/Pad"');
    expect(refOf(op('GET /api/get-invoice/{id}').responses['200'].content?.['application/json'])).toContain(
      '"#/components/schemas/Invoice"',
    );
    expect(refOf(op('GET /api/raaf-certificates').responses['200'].content?.['application/json'])).toContain(
      '"#/components/schemas/RaafCertificate"',
    );
    const raafAnswer = refOf(op('GET /api/raaf').responses['200'].content?.['application/json']);
    expect(raafAnswer).toContain('"#/components/schemas/Raaf"');
    expect(raafAnswer).toContain('"#/components/schemas/RaafRollup"');
    expect(op('GET /api/raaf').parameters?.find((parameter) => parameter.name === 'rollup')).toBeDefined();
    const text = JSON.stringify(doc.paths) + JSON.stringify(doc.components.schemas);
    expect(names.filter((name) => !text.includes(`"#/components/schemas/${name}"`))).toEqual([]);
  });

  it('when a route answers a file, then the document names its real content type, and format-dependent answers list all three', () => {
    for (const key of ['GET /api/raaf', 'GET /api/raaf-summary']) {
      const answer = op(key).responses['200'];
      expect(Object.keys(answer.content ?? {}).sort(), key).toEqual(['application/json', 'application/pdf', 'text/csv']);
      expect(answer.description, key).toContain('format=pdf');
      expect(
        op(key).parameters?.find((parameter) => parameter.name === 'format'),
        key,
      ).toBeDefined();
    }
    for (const key of [
      'GET /api/raaf-certificates/{id}/pdf',
      'GET /api/reports/{id}/pdf',
      'GET /api/reports/preview',
      'GET /api/user-badge/{id}/pdf',
    ]) {
      expect(Object.keys(op(key).responses['200'].content ?? {}), key).toEqual(['application/pdf']);
    }
  });

  it('when a route is read, then its error statuses come from the one table and follow what the route can do, not one set for all', () => {
    for (const { key, operation } of operations) {
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (status.startsWith('2') || key === 'GET /api/health') continue;
        if (key === 'GET /api/get-invoice-assigned-user-id' && status === '422') continue;
        // A go-live file with errors answers 422 with the import's own result: every error with its line and column.
        if (key === 'POST /api/imports' && status === '422') continue;
        expect(Object.keys(ERROR_TABLE), `${key} ${status}`).toContain(status);
        expect(answer.description, `${key} ${status}`).toBe(ERROR_TABLE[Number(status) as keyof typeof ERROR_TABLE]);
        expect(refOf(answer.content?.['application/json']), `${key} ${status}`).toBe('{"$ref":"#/components/schemas/Error"}');
      }
    }
    const statuses = (key: string) => Object.keys(op(key).responses).sort();
    expect(statuses('GET /api/pad-statuses')).toEqual(['200', '401', '403', '500', '503']);
    // A session guard also answers 403 while the user must change a password an administrator chose (docs/design.md §5).
    expect(statuses('GET /api/my-actions')).toEqual(['200', '401', '403', '500', '503']);
    // add-pad answers 409 when REQUIRE_REGISTERED_SERIES refuses a range outside every registered series (docs/design.md §10).
    expect(statuses('POST /api/add-pad')).toEqual(['201', '400', '401', '403', '409', '413', '415', '422', '500', '503']);
    // A path parameter longer than the router takes is answered 414 by the router, in the same shape.
    expect(statuses('DELETE /api/delete-pad/{id}')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '414',
      '415',
      '422',
      '500',
      '503',
    ]);
    expect(statuses('POST /api/login')).toEqual(['200', '400', '403', '413', '415', '422', '429', '500', '503']);
    expect(statuses('GET /api/raaf')).toEqual(['200', '401', '403', '409', '422', '429', '500', '503']);
    expect(new Set(operations.map(({ operation }) => Object.keys(operation.responses).sort().join())).size).toBeGreaterThan(10);
  });

  it('when a signed-link route is read, then its security says bearer or signed link where both work, signed link alone where only that works', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'signedLink']);
    expect(op('GET /api/reports/{id}/pdf').security).toEqual([{ bearer: [] }, { signedLink: [] }]);
    expect(op('GET /api/raaf-certificates/{id}/pdf').security).toEqual([{ bearer: [] }, { signedLink: [] }]);
    expect(op('GET /api/reports/preview').security).toEqual([{ signedLink: [] }]);
    expect(op('GET /api/user-badge/{id}/pdf').security).toEqual([{ signedLink: [] }]);
    expect(op('POST /api/login').security).toEqual([]);
    expect(op('GET /api/get-pads').security).toBeUndefined();
  });

  it('when the courier check and the servers are read, then decoded_user_id is required and the server is the app address', () => {
    const parameters = op('GET /api/get-invoice-assigned-user-id').parameters ?? [];
    expect(parameters.find((parameter) => parameter.name === 'decoded_user_id')).toMatchObject({ in: 'query', required: true });
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://padtrack.test' })]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('when Redocly CLI lints the served document with its recommended rules, then it finds 0 errors', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'padtrack-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await fs.writeFile(file, JSON.stringify(doc));
      const cli = path.resolve('node_modules/.bin/redocly');
      const result = await run(cli, ['lint', file, '--extends=recommended', '--format=json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(result.stdout) as {
        totals: { errors: number };
        problems: Array<{ ruleId: string; severity: string; message: string }>;
      };
      expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('when Spectral lints the served document with spectral:oas (.spectral.yaml), then it finds 0 errors, and the RAAF ranges are arrays of two numbers, not tuples', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'padtrack-spectral-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await fs.writeFile(file, JSON.stringify(doc));
      const cli = path.resolve('node_modules/.bin/spectral');
      const result = await run(cli, ['lint', file, '--ruleset', path.resolve('.spectral.yaml'), '--format', 'json', '--quiet'], {
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const problems = JSON.parse(result.stdout) as Array<{ code: string; severity: number; path: string[]; message: string }>;
      const errors = problems.filter((problem) => problem.severity === 0).map((p) => `${p.code} at ${p.path.join('.')}: ${p.message}`);
      expect(errors).toEqual([]);
      const counts = new Map<string, number>();
      for (const problem of problems) counts.set(problem.code, (counts.get(problem.code) ?? 0) + 1);
      console.info(`Spectral: 0 errors, ${problems.length} warnings (${[...counts].map(([code, n]) => `${code}: ${n}`).join(', ')})`);
      // Each operation's one-line summary describes it; nothing else is left to warn about.
      expect([...counts.keys()].filter((code) => code !== 'operation-description')).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    const ranges = JSON.stringify((doc.components.schemas.RaafRouteRow as { properties: { beginning: unknown } }).properties.beginning);
    expect(ranges).toContain('"ranges":{"type":"array","items":{"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2}}');
    expect(JSON.stringify(doc)).not.toContain('prefixItems');
  });

  it('when the multipart uploads are read, then each field and file is in the document, and the reasons and attachment kinds are enums', () => {
    const form = (key: string) =>
      (op(key) as { requestBody?: { content?: Record<string, Media> } }).requestBody?.content?.['multipart/form-data']?.schema as {
        properties: Record<string, { type?: string; format?: string; items?: { format?: string }; enum?: string[] }>;
        required: string[];
      };
    const loss = form('POST /api/loss-incidents');
    expect(Object.keys(loss.properties).sort()).toEqual(
      [
        ...ATTACHMENT_KINDS,
        'affidavit_notarised_on',
        'circumstances',
        'device_at',
        'occurred_at',
        'pads',
        'place',
        'tax_office_received_on',
      ].sort(),
    );
    for (const kind of ATTACHMENT_KINDS) expect(loss.properties[kind].items?.format, kind).toBe('binary');
    expect(loss.required.sort()).toEqual(['circumstances', 'occurred_at', 'pads', 'place']);
    expect(loss.properties.affidavit_notarised_on).toMatchObject({ type: 'string', format: 'date' });
    const lossJson = (op('POST /api/loss-incidents') as { requestBody?: { content?: Record<string, Media> } }).requestBody?.content?.[
      'application/json'
    ];
    expect(JSON.stringify(lossJson?.schema)).toContain('"pad_id":{"type":"integer","minimum":1,"maximum":2147483647}');

    const upload = form('POST /api/imports');
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(upload.properties.kind.enum).toEqual([...IMPORT_KINDS]);
    expect(upload.required.sort()).toEqual(['dry_run', 'file', 'kind']);

    const outcome = (op('POST /api/pads/{id}/outcome') as { requestBody?: { content?: Record<string, Media> } }).requestBody?.content?.[
      'application/json'
    ]?.schema as { properties: { reason: { enum: string[] } } };
    expect(outcome.properties.reason.enum.sort()).toEqual([...new Set([...OUTCOME_REASONS.cancelled, ...OUTCOME_REASONS.lost])].sort());
    const incident = JSON.stringify(op('GET /api/loss-incidents/{id}').responses['200']);
    expect(incident.includes(`"kind":{"type":"string","enum":${JSON.stringify(ATTACHMENT_KINDS)}}`), 'attachment kind enum').toBe(true);
  });

  it('when ids and dates are read, then every parameter states the bounds the database holds: lookups 1..32767, ids 1..2147483647, days 1900..9999', () => {
    const parameter = (key: string, name: string) => op(key).parameters?.find((p) => p.name === name)?.schema ?? {};
    for (const name of ['invoice_type', 'invoice_status', 'issuance_status'])
      expect(parameter('GET /api/get-invoices', name), name).toMatchObject({ type: 'integer', minimum: 1, maximum: 32_767 });
    expect(parameter('GET /api/get-companies-with-search', 'company_type_id')).toMatchObject({ minimum: 1, maximum: 32_767 });
    expect(parameter('GET /api/get-pad/{id}', 'id')).toEqual({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });
    for (const [key, name] of [
      ['GET /api/get-invoices', 'start_date'],
      ['GET /api/reports', 'end_date'],
      ['GET /api/unused-forms', 'date'],
    ]) {
      const schema = parameter(key, name);
      expect(schema, `${key} ${name}`).toMatchObject({ type: 'string', format: 'date' });
      const pattern = new RegExp(String(schema.pattern));
      expect(
        ['1900-01-01', '9999-12-31'].every((day) => pattern.test(day)),
        `${key} ${name}`,
      ).toBe(true);
      expect(
        ['0000-03-28', '1899-12-31', '10000-01-01'].some((day) => pattern.test(day)),
        `${key} ${name}`,
      ).toBe(false);
    }
  });
});
