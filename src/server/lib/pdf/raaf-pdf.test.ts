import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Raaf } from '../../../shared/schemas/ledger.ts';
import { NO_IDENTITY } from '../../../shared/schemas/operator-identity.ts';
import { pdfToText } from '../../test/pdf.ts';
import { printedWords, type Word } from '../../test/pdf-layout.ts';
import { renderRaafPdf, type RaafDocument } from './raaf-pdf.ts';

/** A head office's month: many routes, each with many ranges and remarks, over dozens of pages. */
function headOfficeMonth(routes: number): RaafDocument {
  const group = (route: number, offset: number) => {
    const ranges: Array<[number, number]> = Array.from({ length: 10 + (route % 4) }, (_, i) => [
      offset + i * 100 + 1,
      offset + i * 100 + 50,
    ]);
    return { qty: ranges.length * 50, ranges };
  };
  const rows: Raaf['rows'] = Array.from({ length: routes }, (_, r) => ({
    route: { id: r + 1, name: `Route ${r + 1}`, tin: `000-123-${String(r).padStart(3, '0')}`, company: `Ocean Lines ${r % 4}` },
    beginning: group(r, 100000),
    receipt: group(r, 200000),
    issued: { ...group(r, 300000), by_kind: { used: 500, cancelled: 40, lost: 10, transferred: 50 } },
    ending: group(r, 400000),
    remarks: [
      `Transferred ${300001 + r}-${300050 + r} (50) to Maria Clara Santos-Villanueva (Calapan Port) on invoice #${1000 + r}`,
      `Lost ${r}01-${r}10 (10): fell overboard at the pier`,
      `Correction: ${r}01-${r}10 (10) unmarked; marked used by Juan Dela Cruz on 3 Oct 2026, with a reason long enough to run past the end of one line of a landscape page, so that it has to wrap onto a second line where it ends with the word keptToTheEnd`,
    ],
  }));
  return {
    operator: NO_IDENTITY,
    raaf: {
      month: '2026-10',
      holder: { type: 'branch', id: 1, name: 'Head Office', branch: { id: 1, name: 'Head Office' } },
      rows,
      totals: { beginning: 1, receipt: 2, issued: 3, ending: 4 },
      balanced: true,
      in_transit: [],
      certificate: null,
    },
    certificate: null,
    timeZone: 'Asia/Manila',
    generatedAt: new Date('2026-11-02T03:04:05Z'),
  };
}

const pages = (text: string) => text.split('\f').filter((page) => page.trim());

describe('RAAF PDF', () => {
  it('when a long RAAF is streamed, then every page reads "Page N of Y" and the file is the one drawn whole', async () => {
    const input = headOfficeMonth(80);
    const whole = await renderRaafPdf(input).finish();
    const streamed = Buffer.concat(await renderRaafPdf(input).stream().toArray());

    const all = pages(pdfToText(streamed));
    expect(all.length).toBeGreaterThan(30);
    all.forEach((page, i) => {
      expect(page).toContain('REPORT OF ACCOUNTABILITY FOR ACCOUNTABLE FORMS');
      expect(page).toMatch(new RegExp(`Generated 02 Nov 2026 11:04 by PadTrack\\s+Page ${i + 1} of ${all.length}\\n`));
    });
    expect(pdfToText(streamed)).toBe(pdfToText(whole));
    expect(Buffer.compare(streamed, whole)).toBe(0);
    for (const remark of input.raaf.rows.flatMap((row) => row.remarks)) expect(all.join('\n')).toContain(remark.slice(0, 60));
  });

  it('when the reader stops taking bytes, then the first pages are there to send, the drawing stops a few pages on, and finishes once the reader reads on', async () => {
    const pdf = renderRaafPdf(headOfficeMonth(80));
    const stream = pdf.stream();
    for (let turn = 0; turn < 50; turn += 1) await nextTurn();
    const drawn = pdf.pageCount;
    for (let turn = 0; turn < 50; turn += 1) await nextTurn();

    expect(pdf.pageCount).toBe(drawn);
    expect(stream.readableLength).toBeGreaterThanOrEqual(stream.readableHighWaterMark);
    const first = stream.read(5) as Buffer;
    expect(first.toString('latin1')).toBe('%PDF-');
    const rest = Buffer.concat(await stream.toArray());
    const total = pages(pdfToText(Buffer.concat([first, rest]))).length;
    expect(drawn).toBeLessThan(total / 3);
    expect(pdf.pageCount).toBe(total);
  });

  it('when a RAAF has hundreds of remark lines, then each one-line remark has a line of its own, in order, and a long one wraps whole', async () => {
    const input = headOfficeMonth(200);
    const text = pdfToText(await renderRaafPdf(input).finish());

    const remarks = input.raaf.rows.flatMap((row) => row.remarks.filter((remark) => !remark.startsWith('Correction')));
    const lines = text.split('\n').filter((line) => line.startsWith('- '));
    let at = 0;
    for (const remark of remarks) {
      at = lines.findIndex((line, i) => i >= at && line.includes(remark));
      expect(at, remark).toBeGreaterThanOrEqual(0);
    }
    expect(text.match(/keptToTheEnd/g)).toHaveLength(200);
  });

  it('when a remark holds brackets, a backslash and letters beyond ASCII, then it prints as written', async () => {
    const input = headOfficeMonth(1);
    const remark = 'Lost 101-110 (10): left at the pier (north) \\ cafe\u0301 Peñafrancia — €5 “fare”';
    input.raaf.rows[0].remarks = [remark];
    const text = pdfToText(await renderRaafPdf(input).finish());
    expect(text).toContain(`Route 1: ${remark.normalize('NFC')}`);
  });

  it('when remarks run past the end of a line, then each line is filled up to the word that would pass the margin and the lines read the remark whole', async () => {
    const input = headOfficeMonth(1);
    const names = ['Ana Cruz', 'Maria Clara Santos-Villanueva de los Reyes y Concepcion', 'Jose (Pepe) Mercado \\ Rizal'];
    const remarks = Array.from({ length: 120 }, (_, i) => {
      const place = `${'Iloilo Port Regional Distribution and Ticketing Office '.repeat(i % 5)}Pier ${i}`;
      return `Transferred ${300001 + i * 50}-${300050 + i * 50} (50) to ${names[i % 3]} (${place}) on invoice #${4000 + i}`;
    });
    input.raaf.rows[0].remarks = remarks;
    input.raaf.rows[0].issued.qty = 0;
    const printed = printedWords(await renderRaafPdf(input).finish());

    /* The body's right edge on landscape A4, and a space at 8 pt (Helvetica's is 278/1000 em). */
    const right = 841.89 - 36;
    const space = 8 * 0.278;
    const lines: Word[][] = [];
    let inRemarks = false;
    for (const page of printed) {
      const rows = new Map<number, Word[]>();
      for (const word of page.words) rows.set(Math.round(word.yMin), [...(rows.get(Math.round(word.yMin)) ?? []), word]);
      for (const [, words] of [...rows].sort(([a], [b]) => a - b)) {
        const text = words.map((word) => word.text).join(' ');
        if (text === 'CERTIFICATION') inRemarks = false;
        const body = words[0].yMin > 32 + 64 && words[0].yMin < 595.28 - 36;
        if (inRemarks && body && words[0].xMin < 37) lines.push(words.sort((a, b) => a.xMin - b.xMin));
        if (text === 'Remarks') inRemarks = true;
      }
    }
    const texts = lines.map((words) => words.map((word) => word.text).join(' '));
    const read: string[] = [];
    lines.forEach((words, i) => {
      if (texts[i].startsWith('- ')) read.push(texts[i]);
      else read[read.length - 1] += ` ${texts[i]}`;
      const last = words[words.length - 1];
      expect(last.xMax, texts[i]).toBeLessThanOrEqual(right + 0.6);
      const next = lines[i + 1]?.[0];
      if (next && !texts[i + 1].startsWith('- '))
        expect(last.xMax + space + next.xMax - next.xMin, `${texts[i]} / ${texts[i + 1]}`).toBeGreaterThan(right - 0.6);
    });
    expect(read).toEqual(remarks.map((remark) => `- Route 1: ${remark}`));
    expect(lines.length).toBeGreaterThan(remarks.length + 40);
  });

  it('when the holder, branch, route and company names run near their limits, then the printed text holds each of them whole', async () => {
    const near = (words: string, length: number) =>
      words
        .repeat(Math.ceil(length / words.length))
        .slice(0, length)
        .trim();
    const person = near('Maria Clara Josefina Esperanza Santos ', 250);
    const branch = near('Iloilo Port Regional Distribution and Ticketing Office ', 250);
    const input = headOfficeMonth(2);
    input.raaf.holder = { type: 'user', id: 7, name: person, branch: { id: 3, name: branch } };
    const route = {
      id: 2,
      name: near('Manila - Iloilo - Bacolod via Cebu ', 250),
      tin: near('004-512-889-000 ', 64),
      company: near('Ocean Fast Ferries ', 250),
    };
    input.raaf.rows[1].route = route;
    const pdf = await renderRaafPdf(input).finish();

    const printed = pdfToText(pdf).replace(/\s+/g, ' ');
    expect(printed).toContain(`Accountable Officer: ${person} Branch: ${branch}`);
    const firstColumn = printedWords(pdf).flatMap((page) =>
      page.words.filter((word) => word.xMax < 36 + 138 && word.yMin > 32 + 64).sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin),
    );
    expect(firstColumn.map((word) => word.text).join(' ')).toContain(`${route.company} - ${route.name} - ${route.tin}`);
  });
});
