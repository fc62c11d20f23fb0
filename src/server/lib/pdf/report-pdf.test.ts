import { describe, expect, it } from 'vitest';
import { NO_IDENTITY } from '../../../shared/schemas/operator-identity.ts';
import { pdfToText } from '../../test/pdf.ts';
import { renderReportPdf, type ReportDocument } from './report-pdf.ts';

/** A month of completed invoices, some with enough pads to run over a page. */
function month(number: string | null): ReportDocument {
  return {
    operator: NO_IDENTITY,
    number,
    generatedAt: new Date('2026-11-02T03:04:05Z'),
    generatedBy: { name: 'Ana Cruz', role: 'Accounting' },
    remarks: 'October',
    periodFrom: '2026-10-01',
    periodTo: '2026-10-31',
    timeZone: 'Asia/Manila',
    invoices: Array.from({ length: 30 }, (_, i) => ({
      id: 500 + i,
      status: 'Completed',
      route: `Ocean Lines - Route ${i % 7} - 000-123-00${i % 7}`,
      from_branch: 'Head Office',
      to_branch: `Branch ${i % 5}`,
      receiving_user: 'Juan Dela Cruz',
      courier: 'Pedro Penduko',
      issued_at: new Date('2026-10-03T01:00:00Z'),
      accepted_at: new Date('2026-10-04T01:00:00Z'),
      expected_return_date: '2026-11-30',
      pads: Array.from({ length: 2 + ((i * 7) % 45) }, (_, p) => ({
        number: 1000 + p,
        series_from: p * 50 + 1,
        series_to: p * 50 + 50,
        pad_status: 'Issued',
      })),
    })),
  };
}

const pages = (text: string) => text.split('\f').filter((page) => page.trim());

describe('report PDF', () => {
  it('when a preview is streamed, then every page has the watermark and "Page N of Y", and the file is the one drawn whole', async () => {
    const streamed = Buffer.concat(await renderReportPdf(month(null)).stream().toArray());
    const whole = await renderReportPdf(month(null)).finish();

    const all = pages(pdfToText(streamed));
    expect(all.length).toBeGreaterThan(10);
    all.forEach((page, i) => {
      expect(page).toContain('Report No. PREVIEW (not saved)');
      expect(page).toMatch(
        new RegExp(
          `PREVIEW, not a saved report\\s+\\|\\s+Rendered 02 Nov 2026 11:04 \\(Asia/Manila\\)\\s+Page ${i + 1} of ${all.length}\\n`,
        ),
      );
    });
    const raw = streamed.toString('latin1');
    expect(raw.match(/\/ExtGState <</g), 'the faint watermark is the only see-through drawing: one per page').toHaveLength(all.length);
    expect(raw.match(/\/Subtype \/Form/g), 'one page count for all pages').toHaveLength(1);
    expect(pdfToText(streamed)).toBe(pdfToText(whole));
    expect(Buffer.compare(streamed, whole)).toBe(0);
  });

  it('when a saved report is drawn whole, then it has no watermark and every page says "Page N of Y"', async () => {
    const pdf = await renderReportPdf(month('RPT-2026-0007')).finish();
    const all = pages(pdfToText(pdf));

    expect(all.length).toBeGreaterThan(10);
    all.forEach((page, i) => {
      expect(page).not.toContain('PREVIEW');
      expect(page).toMatch(new RegExp(`Report No. RPT-2026-0007\\s+\\|\\s+Generated .*\\s+Page ${i + 1} of ${all.length}\\n`));
    });
    expect(pdf.toString('latin1')).not.toContain('/ExtGState');
  });
});
