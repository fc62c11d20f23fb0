import { TABLE_OWNERS, TABLE_READS } from './table-owners.js';

/** A table a feature file touches without owning it or being allowed to read it. */
export interface TableViolation {
  file: string;
  table: string;
  via: 'sql' | 'query builder';
}

/** The Drizzle name → SQL name of every table in the schema's text (`pgTable('pad_events', …)` and the `lookup('…')` tables). */
export function schemaTables(schemaText: string): Map<string, string> {
  const tables = new Map<string, string>();
  for (const match of schemaText.matchAll(/export const (\w+) = (?:pgTable|lookup)\(\s*'([a-z0-9_]+)'/g)) tables.set(match[1], match[2]);
  return tables;
}

/** The literal text of every `sql` template in a file, with the `${…}` holes blanked (nested templates come out on their own). */
export function sqlTemplateTexts(source: string): string[] {
  const texts: string[] = [];
  for (const match of source.matchAll(/\bsql\s*(?:<[^`;]*?>)?\s*`/g)) {
    texts.push(templateText(source, (match.index ?? 0) + match[0].length));
  }
  return texts;
}

/** Reads a template literal from just after its opening backtick; expressions (and templates inside them) are skipped. */
function templateText(source: string, start: number): string {
  let text = '';
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      i++;
    } else if (char === '`') {
      return text;
    } else if (char === '$' && source[i + 1] === '{') {
      i = skipExpression(source, i + 2);
      text += ' ? ';
    } else {
      text += char;
    }
  }
  return text;
}

/** The index of the `}` closing an expression that starts at `start`, stepping over strings and nested templates. */
function skipExpression(source: string, start: number): number {
  let depth = 1;
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (char === '`') {
      i = skipTemplate(source, i + 1);
    } else if (char === "'" || char === '"') {
      const end = source.indexOf(char, i + 1);
      i = end === -1 ? source.length : end;
    } else if (char === '{') {
      depth++;
    } else if (char === '}' && --depth === 0) {
      return i;
    }
  }
  return source.length;
}

function skipTemplate(source: string, start: number): number {
  for (let i = start; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '`') return i;
    else if (source[i] === '$' && source[i + 1] === '{') i = skipExpression(source, i + 2);
  }
  return source.length;
}

const TABLE_AFTER = /\b(?:from|join|into|update|table|analyze|truncate)\s+(?:only\s+)?([a-z_][a-z0-9_]*)/gi;

/** The SQL table names a file's `sql` templates read or write (from, join, into, update, delete from, analyze …). */
export function sqlTables(source: string, sqlNames: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const text of sqlTemplateTexts(source)) {
    for (const match of text.matchAll(TABLE_AFTER)) {
      const name = match[1].toLowerCase();
      if (sqlNames.has(name)) found.add(name);
    }
  }
  return found;
}

/** The Drizzle tables a file imports from the files of db/schema/ (the query builder's tables, whatever it then calls on them). */
export function builderTables(source: string, drizzleNames: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const match of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[./]*db\/schema\/[\w-]+(?:\.ts)?'/g)) {
    for (const part of match[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (drizzleNames.has(name)) found.add(name);
    }
  }
  return found;
}

/** The feature folder a path under src/server/features belongs to ("pads/repo.ts" → "pads"). */
export const featureOf = (file: string) => file.replace(/^.*src\/server\/features\//, '').split('/')[0];

/**
 * Every table a feature file touches in `sql` templates or through schema imports that its feature neither owns
 * (TABLE_OWNERS) nor may read (TABLE_READS). `files` are paths under src/server/features with their text; `schemaText`
 * is the text of the files of src/server/db/schema/.
 */
export function tableViolations(
  files: ReadonlyArray<{ file: string; text: string }>,
  schemaText: string,
  owners: Record<string, string[]> = TABLE_OWNERS,
  reads: Record<string, string[]> = TABLE_READS,
): TableViolation[] {
  const tables = schemaTables(schemaText);
  const drizzleOf = new Map([...tables].map(([drizzle, name]) => [name, drizzle]));
  const violations: TableViolation[] = [];
  for (const { file, text } of files) {
    const feature = featureOf(file);
    const allowed = new Set([...(owners[feature] ?? []), ...(reads[feature] ?? [])]);
    for (const name of sqlTables(text, new Set(tables.values()))) {
      const drizzle = drizzleOf.get(name) ?? name;
      if (!allowed.has(drizzle)) violations.push({ file, table: name, via: 'sql' });
    }
    for (const drizzle of builderTables(text, new Set(tables.keys()))) {
      if (!allowed.has(drizzle)) violations.push({ file, table: tables.get(drizzle) ?? drizzle, via: 'query builder' });
    }
  }
  return violations;
}
