/**
 * Boundary and hostile requests made from the served OpenAPI document alone: for every operation, every parameter
 * and every body field in turn gets each value its schema makes dangerous (type edges, overflow, bad dates, huge and
 * odd text, wrong types), the rest of the request staying plausible; then whole-body variants (each required field
 * missing, an extra field, wrong shapes). The fuzz test sends them and expects no 5xx.
 */

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface FuzzDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A body as the request carries it: JSON, multipart form fields and files, or bytes sent as they are. */
export type FuzzBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'multipart'; fields: Record<string, string>; files: Array<{ field: string; name: string; type: string; content: Buffer }> }
  | { kind: 'raw'; contentType: string; payload: string };

export interface FuzzCase {
  /** "POST /api/add-pad". */
  operation: string;
  /** What is hostile in it: "query start_date = 0000-01-01". */
  what: string;
  method: Method;
  url: string;
  headers: Record<string, string>;
  body?: FuzzBody;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const MULTIPART = 'multipart/form-data';
const JSON_TYPE = 'application/json';

/** Text no field should choke on: control and format characters, right-to-left marks, astral and combining characters. */
const ODD_TEXT = ['', ' ', 'a\u0000b', '\u202Eevil\u202C', '🚢⚓️👩🏽‍✈️', '\uD800', '\t\r\n', "'; DROP TABLE pads;--", '１２３'];
/** Numbers at the edges of the database's and JavaScript's integer types, and beyond them. */
const NUMBER_EDGES = [0, -1, 1.5, 32_767, 32_768, 2_147_483_647, 2_147_483_648, 9_007_199_254_740_991, 1e16, 1e308];
/** Numbers as text: what a query string or a form field carries. */
const NUMBER_TEXT_EDGES = ['9007199254740993', '9223372036854775808', '99999999999999999999999', '1e3', '0x10', ' 1 ', 'NaN', 'Infinity'];
/** Digit strings a pattern like ^\d{1,10}$ lets through although the database's integer cannot hold them. */
const DIGIT_EDGES = ['0', '32768', '2147483648', '1,2147483648', '9999999999'];
/** Calendar edges: years PostgreSQL or JavaScript handle differently, impossible days, other shapes. */
const DATE_EDGES = [
  '0000-01-01',
  '0000-03-28',
  '0001-01-01',
  '1899-12-31',
  '1900-01-01',
  '9999-12-31',
  '10000-01-01',
  '+010000-01-01',
  '2024-02-29',
  '2026-02-30',
  '2026-13-01',
  '2026-1-1',
  '2026-01-01T00:00:00Z',
  '２０２６-０１-０１',
];
const DATE_TIME_EDGES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59-14:00',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T00:00:00+99:00',
  'Tue, 01 Jan 0000 00:00:00 GMT',
];
const MONTH_EDGES = ['0000-01', '0001-01', '9999-12', '10000-01', '2026-00', '2026-13'];

const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/** Follows `$ref`s and picks the first non-null alternative of a union. */
function resolver(document: FuzzDocument) {
  const components = document.components?.schemas ?? {};
  const resolve = (schema: JsonSchema | undefined, depth = 0): JsonSchema => {
    if (!schema || depth > 20) return {};
    if (schema.$ref) return resolve(components[schema.$ref.split('/').pop() ?? ''], depth + 1);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives)
      return resolve(alternatives.find((option) => typeOf(resolve(option, depth + 1)) !== 'null') ?? alternatives[0], depth + 1);
    if (schema.allOf?.length === 1) return resolve(schema.allOf[0], depth + 1);
    return schema;
  };
  return resolve;
}

const looksLikeDate = (schema: JsonSchema, name: string) =>
  schema.format === 'date' || /\\d\{4\}-\\d\{2\}-\\d\{2\}\$/.test(schema.pattern ?? '') || /(^|_)(date|on)$/.test(name);
const looksLikeMonth = (schema: JsonSchema, name: string) => name === 'month' || (schema.pattern ?? '').includes('(0[1-9]|1[0-2])$');
const looksLikeDateTime = (schema: JsonSchema, name: string) => schema.format === 'date-time' || /_at$/.test(name);

/** Values tried, in order, for a string with a pattern: the first the pattern accepts is the plausible one. */
const PATTERN_CANDIDATES = ['2026-10', '2026-01-01', '1', '1,2', 'abcdefgh12', 'PT1P1-AAAAAAAAAAAA', 'x', 'a'];

/** A value of the schema that passes it, or comes close: the rest of a request stays plausible while one part is hostile. */
export function plausibleValue(schema: JsonSchema, name: string, resolve: (s: JsonSchema | undefined) => JsonSchema, depth = 0): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const type = typeOf(s);
  if (type === 'integer' || type === 'number') {
    const low = s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : Math.floor(s.exclusiveMinimum) + 1);
    const one = Math.max(low ?? 1, 1);
    return s.maximum !== undefined && one > s.maximum ? low : one;
  }
  if (type === 'boolean') return true;
  if (type === 'array') {
    const items = typeof s.items === 'object' ? s.items : {};
    return depth > 4 ? [] : [plausibleValue(items, name, resolve, depth + 1)];
  }
  if (type === 'object' || s.properties) {
    if (depth > 4) return {};
    return Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([key, value]) => [key, plausibleValue(value, key, resolve, depth + 1)]),
    );
  }
  if (s.format === 'binary') return 'file';
  if (looksLikeMonth(s, name)) return '2026-10';
  if (looksLikeDateTime(s, name)) return '2026-01-01T08:00:00Z';
  if (looksLikeDate(s, name)) return '2026-01-01';
  if (s.format === 'email' || name.includes('email')) return PLAIN_EMAIL;
  if (name.includes('password')) return 'Secret@123';
  if (s.pattern) {
    const pattern = new RegExp(s.pattern, 'u');
    const fit = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (fit) return fit;
  }
  return PLAIN_TEXT.padEnd(s.minLength ?? 1, 'z');
}

/** Plain text and e-mail of a plausible request; each case gets its own (freshen), so a name taken by one case stays free for the next. */
const PLAIN_TEXT = 'Fuzz';
const PLAIN_EMAIL = 'fuzz@padtrack.test';
const letters = (n: number): string => (n < 26 ? String.fromCharCode(97 + n) : letters(Math.floor(n / 26) - 1) + letters(n % 26));
let fresh = 0;
function freshen(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.startsWith(PLAIN_TEXT)) return `${value}${letters(fresh)}`;
    if (value === PLAIN_EMAIL) return `fuzz${letters(fresh)}@padtrack.test`;
    return value;
  }
  if (Array.isArray(value)) return value.map(freshen);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, freshen(item)]));
  return value;
}

/** The hostile values of one field: its own edges first, then what every field must survive. */
export function hostileValues(schema: JsonSchema, name: string, resolve: (s: JsonSchema | undefined) => JsonSchema): unknown[] {
  const s = resolve(schema);
  const type = typeOf(s);
  const values: unknown[] = [null, true, [], {}, { nested: 'a\u0000' }, '', 'x'.repeat(20_000)];
  if (type === 'integer' || type === 'number') {
    const low = s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + 1);
    const high = s.maximum ?? (s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - 1);
    if (low !== undefined) values.push(low - 1, low);
    if (high !== undefined) values.push(high, high + 1, String(high + 1));
    values.push(...NUMBER_EDGES, ...NUMBER_TEXT_EDGES, 'abc');
  } else if (type === 'boolean') {
    values.push('true', 'yes', 1, 0);
  } else if (type === 'array') {
    const items = typeof s.items === 'object' ? resolve(s.items) : {};
    const item = plausibleValue(items, name, resolve);
    values.push(
      [null],
      [item, item],
      Array.from({ length: (s.maxItems ?? 1_000) + 1 }, () => item),
      'not a list',
      [-1],
      [2_147_483_648],
    );
  } else if (type === 'object') {
    values.push(JSON.parse('{"__proto__":{"polluted":true}}'), { constructor: { prototype: { polluted: true } } }, 'not an object', [1]);
  } else {
    values.push(...ODD_TEXT, 42, -1);
    if (s.maxLength !== undefined) values.push('x'.repeat(s.maxLength), 'x'.repeat(s.maxLength + 1));
    if (s.enum) values.push(...s.enum, `${String(s.enum[0])}x`, String(s.enum[0]).toUpperCase());
    if (looksLikeMonth(s, name)) values.push(...MONTH_EDGES);
    else if (looksLikeDateTime(s, name)) values.push(...DATE_TIME_EDGES, ...DATE_EDGES.slice(0, 3));
    else if (looksLikeDate(s, name)) values.push(...DATE_EDGES);
    else values.push('0000-01-01', ...DIGIT_EDGES, ...NUMBER_TEXT_EDGES.slice(0, 3));
  }
  return values;
}

/** How a value travels in a URL or a form field: text, with objects as JSON. */
const asText = (value: unknown): string => (value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** Percent-encoding that also sends a lone surrogate, as the invalid UTF-8 bytes a hostile client would. */
const encode = (value: string) => [...value].map((ch) => (/^[\uD800-\uDFFF]$/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');

const documentedUrl = (template: string, path: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encode(path[name] ?? '1'));

/** A small file of each kind an upload may carry: a real PDF start, a PNG signature, CSV text, and junk. */
const FILES = {
  pdf: { name: 'paper.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') },
  csv: { name: 'rows.csv', type: 'text/csv', content: Buffer.from('route,series_from\nx,1\n') },
  junk: { name: '\u202Egpj.exe', type: 'image/png', content: Buffer.from([0x4d, 0x5a, 0, 0, 0xff, 0xfe]) },
  empty: { name: 'empty.csv', type: 'text/csv', content: Buffer.alloc(0) },
};

/**
 * A field schema met again (the same name and schema on another operation: page, search, a path id) gets every
 * REPEAT_SHARE-th of its hostile values, a different share each time, so the repeats together still try them all.
 */
const REPEAT_SHARE = 4;

/** Every fuzz case of the document: per operation, each parameter and body field hostile in turn, then whole-body variants. */
export function fuzzCases(document: FuzzDocument, options: { skip?: ReadonlySet<string> } = {}): FuzzCase[] {
  const resolve = resolver(document);
  const cases: FuzzCase[] = [];
  const met = new Map<string, number>();
  const valuesOf = (where: string, schema: JsonSchema, name: string) => {
    const key = `${where} ${name} ${JSON.stringify(schema)}`;
    const times = met.get(key) ?? 0;
    met.set(key, times + 1);
    const values = hostileValues(schema, name, resolve);
    return times === 0 ? values : values.filter((_, index) => index % REPEAT_SHARE === times % REPEAT_SHARE);
  };
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [verb, op] of Object.entries(operations)) {
      if (!METHODS.has(verb)) continue;
      const method = verb.toUpperCase() as Method;
      const operation = `${method} ${template}`;
      if (options.skip?.has(operation)) continue;
      const params = op.parameters ?? [];
      const basePath = Object.fromEntries(
        params.filter((p) => p.in === 'path').map((p) => [p.name, asText(plausibleValue(p.schema ?? {}, p.name, resolve))]),
      );
      const baseQuery = Object.fromEntries(
        params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, asText(plausibleValue(p.schema ?? {}, p.name, resolve))]),
      );
      const content = op.requestBody?.content ?? {};
      const jsonSchema = content[JSON_TYPE]?.schema ? resolve(content[JSON_TYPE].schema) : undefined;
      const formSchema = content[MULTIPART]?.schema ? resolve(content[MULTIPART].schema) : undefined;

      const make = (
        what: string,
        path: Record<string, string>,
        query: Record<string, string>,
        body?: FuzzBody,
        headers: Record<string, string> = {},
      ): FuzzCase => {
        const search = Object.entries(query)
          .map(([key, value]) => `${encode(key)}=${encode(value)}`)
          .join('&');
        const url = documentedUrl(template, path);
        fresh += 1;
        const fresher: FuzzBody | undefined =
          body?.kind === 'json'
            ? { kind: 'json', value: freshen(body.value) }
            : body?.kind === 'multipart'
              ? { ...body, fields: freshen(body.fields) as Record<string, string> }
              : body;
        return { operation, what, method, url: search ? `${url}?${search}` : url, headers, ...(fresher ? { body: fresher } : {}) };
      };

      const jsonBase = jsonSchema ? (plausibleValue(jsonSchema, '', resolve) as Record<string, unknown>) : undefined;
      const formFields = Object.entries(formSchema?.properties ?? {}).filter(
        ([, value]) => resolve(value).format !== 'binary' && typeOf(resolve(value)) !== 'array',
      );
      const fileFields = Object.entries(formSchema?.properties ?? {})
        .filter(
          ([, value]) =>
            resolve(value).format === 'binary' ||
            (typeOf(resolve(value)) === 'array' && resolve(resolve(value).items as JsonSchema).format === 'binary'),
        )
        .map(([key]) => key);
      const formBase = Object.fromEntries(formFields.map(([key, value]) => [key, asText(plausibleValue(value, key, resolve))]));
      const baseBody: FuzzBody | undefined = jsonBase
        ? { kind: 'json', value: jsonBase }
        : formSchema
          ? { kind: 'multipart', fields: formBase, files: fileFields.slice(0, 1).map((field) => ({ field, ...FILES.pdf })) }
          : undefined;

      cases.push(make('plausible request', basePath, baseQuery, baseBody));
      for (const param of params) {
        if (param.in === 'cookie') continue;
        for (const value of valuesOf(param.in, param.schema ?? {}, param.name)) {
          const text = asText(value);
          const what = `${param.in} ${param.name} = ${text.slice(0, 60)}`;
          if (param.in === 'path') {
            // An empty segment names another route; Fastify's router answers such paths itself (404, 414).
            if (text === '') continue;
            cases.push(make(what, { ...basePath, [param.name]: text }, baseQuery, baseBody));
          } else if (param.in === 'query') cases.push(make(what, basePath, { ...baseQuery, [param.name]: text }, baseBody));
          else if (/^[\x20-\x7e]*$/.test(text) && text.length < 8_000)
            cases.push(make(what, basePath, baseQuery, baseBody, { [param.name]: text }));
        }
      }
      if (jsonSchema && jsonBase) {
        for (const [field, fieldSchema] of Object.entries(jsonSchema.properties ?? {})) {
          for (const value of valuesOf('body', fieldSchema, field))
            cases.push(
              make(`body ${field} = ${asText(value).slice(0, 60)}`, basePath, baseQuery, {
                kind: 'json',
                value: { ...jsonBase, [field]: value },
              }),
            );
        }
        for (const field of jsonSchema.required ?? []) {
          const { [field]: _dropped, ...rest } = jsonBase;
          cases.push(make(`body without ${field}`, basePath, baseQuery, { kind: 'json', value: rest }));
        }
        cases.push(
          make('body with extra fields', basePath, baseQuery, {
            kind: 'json',
            value: { ...jsonBase, extra: 1, role_id: 1, id: 2_147_483_648 },
          }),
        );
        cases.push(
          make('body with every field null', basePath, baseQuery, {
            kind: 'json',
            value: Object.fromEntries(Object.keys(jsonBase).map((key) => [key, null])),
          }),
        );
      }
      if (formSchema && baseBody?.kind === 'multipart') {
        for (const [field, fieldSchema] of formFields) {
          for (const value of valuesOf('form', fieldSchema, field))
            cases.push(
              make(`form ${field} = ${asText(value).slice(0, 60)}`, basePath, baseQuery, {
                ...baseBody,
                fields: { ...baseBody.fields, [field]: asText(value) },
              }),
            );
          const { [field]: _dropped, ...rest } = baseBody.fields;
          cases.push(make(`form without ${field}`, basePath, baseQuery, { ...baseBody, fields: rest }));
        }
        for (const field of fileFields) {
          for (const [kind, file] of Object.entries(FILES))
            cases.push(make(`file ${field} = ${kind}`, basePath, baseQuery, { ...baseBody, files: [{ field, ...file }] }));
        }
        cases.push(make('form without files', basePath, baseQuery, { ...baseBody, files: [] }));
        cases.push(
          make('form with a file under an unknown field', basePath, baseQuery, { ...baseBody, files: [{ field: 'evil', ...FILES.pdf }] }),
        );
        cases.push(
          make('form with too many files', basePath, baseQuery, {
            ...baseBody,
            files: Array.from({ length: 12 }, () => ({ field: fileFields[0] ?? 'file', ...FILES.pdf })),
          }),
        );
        cases.push(
          make('form with a truncated multipart body', basePath, baseQuery, {
            kind: 'raw',
            contentType: `${MULTIPART}; boundary=xyz`,
            payload: '--xyz\r\nContent-Disposition: form-data; name="kind"\r\n\r\npads',
          }),
        );
        cases.push(make('form without a boundary', basePath, baseQuery, { kind: 'raw', contentType: MULTIPART, payload: 'kind=pads' }));
      }
      if (method !== 'GET' && method !== 'DELETE') {
        for (const payload of ['null', '[]', '"a\\u0000b"', '{', '{"a":'.repeat(2_000), `{"x":"${'y'.repeat(1_100_000)}"}`])
          cases.push(make(`raw JSON body ${payload.slice(0, 20)}`, basePath, baseQuery, { kind: 'raw', contentType: JSON_TYPE, payload }));
        cases.push(make('body as text/plain', basePath, baseQuery, { kind: 'raw', contentType: 'text/plain', payload: 'hello' }));
      }
    }
  }
  return cases;
}

/** The request app.inject sends for a case, signed in with `authorization` (or not), from its own client address. */
export function injectOptions(c: FuzzCase, authorization: string | null, remoteAddress: string) {
  const headers: Record<string, string> = { ...c.headers, ...(authorization ? { authorization } : {}) };
  const base = { method: c.method, url: c.url, remoteAddress };
  if (!c.body) return { ...base, headers };
  if (c.body.kind === 'json') return { ...base, headers: { ...headers, 'content-type': JSON_TYPE }, payload: JSON.stringify(c.body.value) };
  if (c.body.kind === 'raw') return { ...base, headers: { ...headers, 'content-type': c.body.contentType }, payload: c.body.payload };
  const boundary = `fuzz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(c.body.fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of c.body.files)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { ...base, headers: { ...headers, 'content-type': `${MULTIPART}; boundary=${boundary}` }, payload: Buffer.concat(parts) };
}
