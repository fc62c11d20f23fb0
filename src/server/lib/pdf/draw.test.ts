import { describe, expect, it } from 'vitest';
import { NO_IDENTITY } from '../../../shared/schemas/operator-identity.ts';
import { pdfToText } from '../../test/pdf.ts';
import { Pdf } from './document.ts';
import { keyValues, pageFooters, signatures, table } from './draw.ts';
import { letterhead } from './letterhead.ts';

function sheet(): Pdf {
  const pdf = new Pdf({
    size: 'A4',
    margins: { left: 48, right: 48, top: 40, bottom: 48 },
    headerHeight: 52,
    footerGap: 18,
    info: { title: 'Test sheet' },
  });
  pdf.onEveryPage(() => letterhead(pdf, NO_IDENTITY, { reference: 'Slip No. T-1', title: 'Transmittal Slip' }));
  pdf.addPage();
  return pdf;
}

const pages = (text: string) => text.split('\f').filter((page) => page.trim());

describe('PDF drawing helpers', () => {
  it('when a table runs over several pages, then each page has the letterhead, the header again under "(continued)" and "Page X of Y"', async () => {
    const pdf = sheet();
    const rows = Array.from({ length: 120 }, (_, i) => [`Pad ${i + 1}`, String((i + 1) * 50)]);
    table(pdf, [{ label: 'Pad' }, { label: 'Receipts', width: 90, align: 'right' }], rows, {
      caption: 'Pads sent',
      totals: ['Total', '363,000'],
    });
    pageFooters(pdf, 'Slip No. T-1', { size: 7.5, ruled: true });
    const text = pdfToText(await pdf.finish());

    const all = pages(text);
    expect(all.length).toBeGreaterThan(2);
    all.forEach((page, i) => {
      expect(page).toContain('Slip No. T-1');
      expect(page).toContain('Transmittal Slip');
      expect(page).toMatch(/Pad\s+Receipts/);
      expect(page).toContain(`Page ${i + 1} of ${all.length}`);
      if (i > 0) expect(page).toContain('Pads sent (continued)');
    });
    for (const [pad, receipts] of rows) expect(text).toMatch(new RegExp(`${pad}\\s+${receipts}\\n`));
    expect(all.at(-1)).toMatch(/Total\s+363,000/);
  });

  it('when a cell or a value is longer than its column, then it wraps within it and nothing is cut', async () => {
    const pdf = sheet();
    const long = 'a remark long enough to need two lines in a column of this width, every word of it kept';
    keyValues(pdf, [
      { label: 'Remarks', value: long, wide: true },
      { label: 'Courier', value: '' },
      { label: 'Vessel', value: 'MV Ocean' },
    ]);
    table(pdf, [{ label: 'Item', width: 120 }, { label: 'Note' }], [['Pad 1', long]]);
    const text = pdfToText(await pdf.finish());

    expect(text.match(/every word of it kept/g)).toHaveLength(2);
    expect(text).toMatch(/Courier\s+-\s+Vessel\s+MV Ocean/);
  });

  it('when signature lines are drawn, then each slot shows its captions in order and empty lines keep their place', async () => {
    const pdf = sheet();
    signatures(pdf, [{ lines: [{ text: 'Released by' }, { text: 'Maria Santos' }] }, { lines: [{ text: 'Received by' }, { text: '' }] }], {
      gutter: 40,
      space: 40,
    });
    const text = pdfToText(await pdf.finish());

    expect(text).toMatch(/Released by\s+Received by\s*\n\s*Maria Santos/);
  });
});
