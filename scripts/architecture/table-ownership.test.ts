import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaTables, tableViolations, type TableViolation } from './table-ownership.ts';
import { TABLE_OWNERS, TABLE_READS } from './table-owners.js';

const root = path.resolve(import.meta.dirname, '../..');
const featuresDir = path.join(root, 'src/server/features');
const schemaDir = path.join(root, 'src/server/db/schema');
const schemaText = fs
  .readdirSync(schemaDir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => fs.readFileSync(path.join(schemaDir, file), 'utf8'))
  .join('\n');

const featureFiles = () =>
  fs
    .readdirSync(featuresDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({ file: file.split(path.sep).join('/'), text: fs.readFileSync(path.join(featuresDir, file), 'utf8') }));

/** A planted file, checked as if it lay at `file` under src/server/features. */
const planted = (file: string, fixture: string) => ({
  file,
  text: fs.readFileSync(path.join(import.meta.dirname, 'fixtures/ownership', fixture), 'utf8'),
});

const describeViolation = (v: TableViolation) => `${v.file}: ${v.table} (${v.via})`;

describe('table ownership', () => {
  it('when the features are read, then every file touches only the tables its feature owns or may read', () => {
    const found = tableViolations(featureFiles(), schemaText).map(describeViolation);
    expect(found).toEqual([]);
  });

  it('when a companies file selects from pad_events in raw SQL, then the checker reports it', () => {
    expect(tableViolations([planted('companies/repo.ts', 'companies-raw-sql.txt')], schemaText)).toEqual([
      { file: 'companies/repo.ts', table: 'pad_events', via: 'sql' },
    ]);
  });

  it("when a file imports another feature's table for the query builder, then the checker reports it", () => {
    expect(tableViolations([planted('routes/repo.ts', 'routes-query-builder.txt')], schemaText)).toEqual([
      { file: 'routes/repo.ts', table: 'pad_events', via: 'query builder' },
    ]);
  });

  it('when foreign tables hide in a multi-line generic or a template nested in a hole, then the checker reports them', () => {
    const found = tableViolations([planted('pads/repo.ts', 'pads-nested-sql.txt')], schemaText);
    expect(found.map(describeViolation).sort()).toEqual(['pads/repo.ts: loss_incident_pads (sql)', 'pads/repo.ts: users (sql)']);
  });

  it('when a file names only its own tables and those it may read, then the checker reports nothing', () => {
    expect(tableViolations([planted('pads/repo.ts', 'pads-own-tables.txt')], schemaText)).toEqual([]);
  });

  it('when the owner maps are read, then each names tables of the schema and no table has two owners', () => {
    const tables = new Set(schemaTables(schemaText).keys());
    const owned = Object.values(TABLE_OWNERS).flat();
    expect(owned.filter((table) => !tables.has(table))).toEqual([]);
    expect(
      Object.values(TABLE_READS)
        .flat()
        .filter((table) => !tables.has(table)),
    ).toEqual([]);
    expect(owned.filter((table, i) => owned.indexOf(table) !== i)).toEqual([]);
  });
});
