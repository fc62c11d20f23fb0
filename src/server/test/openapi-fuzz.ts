/**
 * Boundary and hostile requests made from the served OpenAPI document alone: for every operation, every parameter
 * and every body field in turn gets each value its schema makes dangerous (type edges, overflow, bad dates, huge and
 * odd text, wrong types), the rest of the request staying plausible; then whole-body variants (each required field
 * missing, an extra field, wrong shapes). The fuzz test sends them and expects no 5xx.
 */

import { hostileValues, plausibleValue, PLAIN_EMAIL, PLAIN_TEXT, resolver, typeOf, type JsonSchema } from './fuzz-values.ts';

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

/** Each case gets its own plain text and e-mail, so a name taken by one case stays free for the next. */
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

type Make = (
  what: string,
  path: Record<string, string>,
  query: Record<string, string>,
  body?: FuzzBody,
  headers?: Record<string, string>,
) => FuzzCase;

/** One operation's plausible request, and how to make a case of it with one part changed. */
interface Plausible {
  make: Make;
  path: Record<string, string>;
  query: Record<string, string>;
  body: FuzzBody | undefined;
  /** The hostile values of a field, fewer for a field already met elsewhere (REPEAT_SHARE). */
  valuesOf: (where: string, schema: JsonSchema, name: string) => unknown[];
}

type Resolve = ReturnType<typeof resolver>;

/** Every fuzz case of the document: per operation, each parameter and body field hostile in turn, then whole-body variants. */
export function fuzzCases(document: FuzzDocument, options: { skip?: ReadonlySet<string> } = {}): FuzzCase[] {
  const resolve = resolver(document.components?.schemas ?? {});
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
      // Cast: OpenAPI path items hold the HTTP verbs as lowercase keys; only those keys are iterated here.
      const method = verb.toUpperCase() as Method;
      if (options.skip?.has(`${method} ${template}`)) continue;
      cases.push(...operationCases(template, method, op, resolve, valuesOf));
    }
  }
  return cases;
}

/** A case of the operation: the given path, query, body and headers, its plain names made fresh. */
function caseMaker(template: string, method: Method): Make {
  const operation = `${method} ${template}`;
  return (what, path, query, body, headers = {}) => {
    const search = Object.entries(query)
      .map(([key, value]) => `${encode(key)}=${encode(value)}`)
      .join('&');
    const url = documentedUrl(template, path);
    fresh += 1;
    const fresher: FuzzBody | undefined =
      body?.kind === 'json'
        ? { kind: 'json', value: freshen(body.value) }
        : body?.kind === 'multipart'
          ? // Cast: freshen keeps each field's type, and form fields are text.
            { ...body, fields: freshen(body.fields) as Record<string, string> }
          : body;
    return { operation, what, method, url: search ? `${url}?${search}` : url, headers, ...(fresher ? { body: fresher } : {}) };
  };
}

/** One operation's cases: the plausible request, then each parameter and body field hostile in turn, then whole-body variants. */
function operationCases(template: string, method: Method, op: Operation, resolve: Resolve, valuesOf: Plausible['valuesOf']): FuzzCase[] {
  const params = op.parameters ?? [];
  const plausibleText = (p: Parameter) => asText(plausibleValue(p.schema ?? {}, p.name, resolve));
  const path = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, plausibleText(p)]));
  const query = Object.fromEntries(params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, plausibleText(p)]));
  const content = op.requestBody?.content ?? {};
  const jsonSchema = content[JSON_TYPE]?.schema ? resolve(content[JSON_TYPE].schema) : undefined;
  const formSchema = content[MULTIPART]?.schema ? resolve(content[MULTIPART].schema) : undefined;
  // Cast: a JSON body's schema is an object schema, so its plausible value is an object.
  const jsonBase = jsonSchema ? (plausibleValue(jsonSchema, '', resolve) as Record<string, unknown>) : undefined;
  const formFields = Object.entries(formSchema?.properties ?? {}).filter(
    ([, value]) => resolve(value).format !== 'binary' && typeOf(resolve(value)) !== 'array',
  );
  const fileFields = Object.entries(formSchema?.properties ?? {})
    .filter(
      ([, value]) =>
        resolve(value).format === 'binary' ||
        // Cast: an array schema's items is a schema (or a $ref that resolve follows).
        (typeOf(resolve(value)) === 'array' && resolve(resolve(value).items as JsonSchema).format === 'binary'),
    )
    .map(([key]) => key);
  const formBase = Object.fromEntries(formFields.map(([key, value]) => [key, asText(plausibleValue(value, key, resolve))]));
  const body: FuzzBody | undefined = jsonBase
    ? { kind: 'json', value: jsonBase }
    : formSchema
      ? { kind: 'multipart', fields: formBase, files: fileFields.slice(0, 1).map((field) => ({ field, ...FILES.pdf })) }
      : undefined;
  const p: Plausible = { make: caseMaker(template, method), path, query, body, valuesOf };
  return [
    p.make('plausible request', path, query, body),
    ...parameterCases(params, p),
    ...(jsonSchema && jsonBase ? jsonBodyCases(jsonSchema, jsonBase, p) : []),
    ...(formSchema && body?.kind === 'multipart' ? formCases(formFields, fileFields, body, p) : []),
    ...(method !== 'GET' && method !== 'DELETE' ? rawBodyCases(p) : []),
  ];
}

/** Each path, query and header parameter hostile in turn. */
function parameterCases(params: Parameter[], { make, path, query, body, valuesOf }: Plausible): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const param of params) {
    if (param.in === 'cookie') continue;
    for (const value of valuesOf(param.in, param.schema ?? {}, param.name)) {
      const text = asText(value);
      const what = `${param.in} ${param.name} = ${text.slice(0, 60)}`;
      if (param.in === 'path') {
        // An empty segment names another route; Fastify's router answers such paths itself (404, 414).
        if (text === '') continue;
        cases.push(make(what, { ...path, [param.name]: text }, query, body));
      } else if (param.in === 'query') cases.push(make(what, path, { ...query, [param.name]: text }, body));
      else if (/^[\x20-\x7e]*$/.test(text) && text.length < 8_000) cases.push(make(what, path, query, body, { [param.name]: text }));
    }
  }
  return cases;
}

/** Each JSON body field hostile in turn, each required one missing, extra fields, every field null. */
function jsonBodyCases(jsonSchema: JsonSchema, jsonBase: Record<string, unknown>, { make, path, query, valuesOf }: Plausible): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const [field, fieldSchema] of Object.entries(jsonSchema.properties ?? {})) {
    for (const value of valuesOf('body', fieldSchema, field))
      cases.push(
        make(`body ${field} = ${asText(value).slice(0, 60)}`, path, query, {
          kind: 'json',
          value: { ...jsonBase, [field]: value },
        }),
      );
  }
  for (const field of jsonSchema.required ?? []) {
    const { [field]: _dropped, ...rest } = jsonBase;
    cases.push(make(`body without ${field}`, path, query, { kind: 'json', value: rest }));
  }
  cases.push(
    make('body with extra fields', path, query, {
      kind: 'json',
      value: { ...jsonBase, extra: 1, role_id: 1, id: 2_147_483_648 },
    }),
  );
  cases.push(
    make('body with every field null', path, query, {
      kind: 'json',
      value: Object.fromEntries(Object.keys(jsonBase).map((key) => [key, null])),
    }),
  );
  return cases;
}

/** Each form field hostile and missing in turn, each kind of file, then broken multipart bodies. */
function formCases(
  formFields: Array<[string, JsonSchema]>,
  fileFields: string[],
  baseBody: Extract<FuzzBody, { kind: 'multipart' }>,
  { make, path, query, valuesOf }: Plausible,
): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const [field, fieldSchema] of formFields) {
    for (const value of valuesOf('form', fieldSchema, field))
      cases.push(
        make(`form ${field} = ${asText(value).slice(0, 60)}`, path, query, {
          ...baseBody,
          fields: { ...baseBody.fields, [field]: asText(value) },
        }),
      );
    const { [field]: _dropped, ...rest } = baseBody.fields;
    cases.push(make(`form without ${field}`, path, query, { ...baseBody, fields: rest }));
  }
  for (const field of fileFields) {
    for (const [kind, file] of Object.entries(FILES))
      cases.push(make(`file ${field} = ${kind}`, path, query, { ...baseBody, files: [{ field, ...file }] }));
  }
  cases.push(make('form without files', path, query, { ...baseBody, files: [] }));
  cases.push(make('form with a file under an unknown field', path, query, { ...baseBody, files: [{ field: 'evil', ...FILES.pdf }] }));
  cases.push(
    make('form with too many files', path, query, {
      ...baseBody,
      files: Array.from({ length: 12 }, () => ({ field: fileFields[0] ?? 'file', ...FILES.pdf })),
    }),
  );
  cases.push(
    make('form with a truncated multipart body', path, query, {
      kind: 'raw',
      contentType: `${MULTIPART}; boundary=xyz`,
      payload: '--xyz\r\nContent-Disposition: form-data; name="kind"\r\n\r\npads',
    }),
  );
  cases.push(make('form without a boundary', path, query, { kind: 'raw', contentType: MULTIPART, payload: 'kind=pads' }));
  return cases;
}

/** Bodies no JSON parser should trip over: wrong JSON types, broken and deeply nested JSON, an oversized one, plain text. */
function rawBodyCases({ make, path, query }: Plausible): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const payload of ['null', '[]', '"a\\u0000b"', '{', '{"a":'.repeat(2_000), `{"x":"${'y'.repeat(1_100_000)}"}`])
    cases.push(make(`raw JSON body ${payload.slice(0, 20)}`, path, query, { kind: 'raw', contentType: JSON_TYPE, payload }));
  cases.push(make('body as text/plain', path, query, { kind: 'raw', contentType: 'text/plain', payload: 'hello' }));
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
