import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readImportFile } from './parse.ts';

describe('reading an .xlsx import', () => {
  it('when one workbook is read 600 times, then every read has its rows and their texts (the streaming reader now and then stops after the first sheet)', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Pads');
    sheet.addRow(['route', 'series_from', 'holder']);
    for (let i = 1; i <= 20; i += 1) sheet.addRow([`Batangas - Calapan ${i}`, 6000 + i * 50, `Batangas Port ${i}`]);
    /* ExcelJS writes its sheet before its shared strings and its workbook part last: the order a cut-short walk loses. */
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const wrong: string[] = [];
    for (let read = 0; read < 600; read += 1) {
      const file = await readImportFile('go-live.xlsx', content).catch((error: Error) => error);
      if (file instanceof Error) wrong.push(`read ${read}: ${file.message}`);
      else if (file.rows.length !== 20 || file.rows[19].cells.holder !== 'Batangas Port 20')
        wrong.push(`read ${read}: ${JSON.stringify(file.rows.at(-1))}`);
    }
    expect(wrong).toEqual([]);
  });
});
