import { PassThrough } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { count, desc } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { IMPORT_MSG, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '../../../shared/schemas/imports.ts';
import { imports } from '../../db/schema/imports.ts';
import { pads } from '../../db/schema/pads.ts';
import { createRoute, createUser, signedIn } from '../../test/factories.ts';
import { postImport } from '../../test/imports.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const BOMB_BYTES = 200 * 1024 * 1024;
const HEADER = 'route,series_from,series_to,pad_number,holder,used,cancelled,remarks';

let t: TestApp;
let custodian: { headers: Record<string, string> };
let holderEmail: string;

interface ZipPart {
  name: string;
  deflated: Buffer;
  size: number;
  crc: number;
  /** The size the directory claims; a lying bomb claims less than it holds. */
  declared?: number;
}

const part = (name: string, text: string): ZipPart => {
  const data = Buffer.from(text);
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
};

/** A sheet of `bytes` zeros inside one text cell, deflated a megabyte at a time so the test never holds it whole. */
async function zeroSheet(bytes: number): Promise<ZipPart> {
  const head = Buffer.from(
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>',
  );
  const tail = Buffer.from('</t></is></c></row></sheetData></worksheet>');
  const zeros = Buffer.alloc(1024 * 1024, '0');
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  let crc = crc32(head);
  deflate.write(head);
  for (let written = 0; written < bytes; written += zeros.length) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await ended;
  return { name: 'xl/worksheets/sheet1.xml', deflated: Buffer.concat(out), size: head.length + bytes + tail.length, crc };
}

/** A zip archive of the parts, written as any zip library writes one: local headers, data, then the directory. */
function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const size = p.declared ?? p.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc >>> 0, 16);
    central.writeUInt32LE(p.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + p.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The other parts of a one-sheet workbook, so the archive is an .xlsx but for its sheet. */
const workbookParts = () => [
  part(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  ),
  part(
    '_rels/.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  ),
  part(
    'xl/workbook.xml',
    '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Pads" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ),
  part(
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  ),
];

/** A workbook written as the exports write theirs, streamed, so a sheet of 100,000 rows takes seconds. */
async function xlsxOf(rows: Array<Array<string | number>>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Pads');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

const send = (name: string, content: Buffer | string, dryRun = true) =>
  postImport(t, custodian.headers, { kind: 'pads', dryRun, name, content });

const importCount = async () => (await t.db.select({ n: count() }).from(imports))[0].n;
const padCount = async () => (await t.db.select({ n: count() }).from(pads))[0].n;
const lastImport = async () => (await t.db.select().from(imports).orderBy(desc(imports.id)).limit(1))[0];
const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** A file the importer must refuse: 422, the one file error on that line, the refusal on record, and no pad stored. */
async function expectRefused(res: Awaited<ReturnType<typeof send>>, line: number, message: string) {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json() as { message: string; data: { applied: boolean; errors: unknown[] } };
  expect(body.message).toBe(message);
  expect(body.data.applied).toBe(false);
  expect(body.data.errors).toEqual([{ line, column: 'file', message }]);
  expect(JSON.parse((await lastImport()).errors)).toEqual([{ line, column: 'file', message }]);
  expect(await padCount()).toBe(0);
}

beforeAll(async () => {
  t = await createTestApp();
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN });
  await createRoute(t.db, { name: 'Batangas - Calapan', tin: '000-111-222' });
  holderEmail = (await createUser(t.db, { role_id: ROLE.TICKETING_OFFICER })).email;
});
afterAll(async () => {
  await t?.close();
});

describe('import files are bounded before they are read', () => {
  it('when an .xlsx unpacks to 200 MB of zeros, then it is refused from its directory, and memory and the server are unharmed', async () => {
    const sheet = await zeroSheet(BOMB_BYTES);
    const bomb = zipOf([...workbookParts(), sheet]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = await importCount();
    const rssBefore = process.memoryUsage().rss;
    const res = await send('bomb.xlsx', bomb);
    const grown = process.memoryUsage().rss - rssBefore;
    console.info(
      `zip bomb: ${bomb.length} bytes unpacking to ${megabytes(sheet.size)} MB; RSS ${megabytes(rssBefore)} MB before, grew by ${megabytes(grown)} MB`,
    );
    const unpacked = workbookParts().reduce((sum, p) => sum + p.size, sheet.size);
    await expectRefused(res, 1, IMPORT_MSG.unpackedTooLarge(unpacked));
    expect(grown).toBeLessThan(32 * 1024 * 1024);
    expect(await importCount()).toBe(before + 1);
    const after = await send('pads.csv', `${HEADER}\r\nBatangas - Calapan,1,50,1,${holderEmail},,,\r\n`);
    expect(after.statusCode, after.body).toBe(200);
  });

  it('when the bomb claims a small size in its directory, then inflating it stops at that size and it is refused', async () => {
    const sheet = { ...(await zeroSheet(BOMB_BYTES)), declared: 4096 };
    const rssBefore = process.memoryUsage().rss;
    const res = await send('liar.xlsx', zipOf([...workbookParts(), sheet]));
    const grown = process.memoryUsage().rss - rssBefore;
    console.info(`lying zip bomb: RSS grew by ${megabytes(grown)} MB`);
    await expectRefused(res, 1, IMPORT_MSG.unreadable('xl/worksheets/sheet1.xml holds more than its declared 4096 bytes'));
    expect(grown).toBeLessThan(32 * 1024 * 1024);
  });

  it('when an .xlsx line has more columns than allowed, then the file is refused naming that line', async () => {
    const wide = Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => `x${i}`);
    const file = await xlsxOf([HEADER.split(','), ['Batangas - Calapan', 1, 50, 1, holderEmail], wide]);
    await expectRefused(await send('wide.xlsx', file), 3, IMPORT_MSG.tooManyColumns(3));
  });

  it('when a CSV line has more columns than allowed, then the file is refused naming that line', async () => {
    const wide = Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, () => 'x').join(',');
    await expectRefused(await send('wide.csv', `${HEADER}\n${wide}\n`), 2, IMPORT_MSG.tooManyColumns(2));
  });

  it('when a CSV or an .xlsx has one row more than allowed, then it is refused at that row', async () => {
    const line = `Batangas - Calapan,1,50,1,${holderEmail},,,`;
    const csv = `${HEADER}\n${`${line}\n`.repeat(MAX_IMPORT_ROWS + 1)}`;
    await expectRefused(await send('long.csv', csv), MAX_IMPORT_ROWS + 2, IMPORT_MSG.tooManyRows);
    const sheet = await xlsxOf([HEADER.split(','), ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => line.split(','))]);
    await expectRefused(await send('long.xlsx', sheet), MAX_IMPORT_ROWS + 2, IMPORT_MSG.tooManyRows);
  });

  it('when a CSV is Latin-1 with an é on line 3, then it is refused naming line 3', async () => {
    const latin1 = Buffer.from(
      `${HEADER}\nBatangas - Calapan,1,50,1,${holderEmail},,,Counter 1\nBatangas - Calapan,51,100,2,${holderEmail},,,Café\n`,
      'latin1',
    );
    await expectRefused(await send('latin1.csv', latin1), 3, IMPORT_MSG.notUtf8(3));
  });

  it('when a CSV is UTF-8 with a BOM and an é, then it is read and the remark is kept', async () => {
    const csv = `\uFEFF${HEADER}\r\nBatangas - Calapan,1,50,1,${holderEmail},,,Café\r\n`;
    const dry = await send('bom.csv', csv);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data.totals.rows).toBe(1);
    const applied = await send('bom.csv', csv, false);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await t.db.select({ remarks: pads.remarks }).from(pads)).map((p) => p.remarks)).toEqual(['Café']);
  });
});
