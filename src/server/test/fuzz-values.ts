/**
 * The values of one field the fuzz cases of openapi-fuzz.ts send: a plausible one, so the rest of a request passes, and
 * the hostile ones its JSON schema makes dangerous (type edges, overflow, bad dates, huge and odd text, wrong types).
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

/** Plain text and e-mail of a plausible request; openapi-fuzz.ts gives each case its own (freshen), so a name taken by one case stays free for the next. */
export const PLAIN_TEXT = 'Fuzz';
export const PLAIN_EMAIL = 'fuzz@padtrack.test';

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

export const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/** Follows `$ref`s and picks the first non-null alternative of a union. */
export function resolver(components: Record<string, JsonSchema>) {
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
