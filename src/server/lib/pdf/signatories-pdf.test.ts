import { describe, expect, it } from 'vitest';
import type { Raaf } from '../../../shared/schemas/ledger.ts';
import { NO_IDENTITY, operatorShortName, type IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import { pdfToText } from '../../test/pdf.ts';
import { qrPng } from '../qr.ts';
import { renderBadgePdf } from './badge-pdf.ts';
import { renderPadLabelsPdf } from './pad-labels-pdf.ts';
import { renderRaafPdf, type RaafDocument } from './raaf-pdf.ts';
import { renderReportPdf, type ReportDocument } from './report-pdf.ts';
import { renderUnusedFormsPdf } from './unused-forms-pdf.ts';

const OCEAN: IdentitySnapshot = {
  registeredName: 'Ocean Fast Ferries Inc.',
  tradeName: 'OceanJet',
  tin: '004-512-889-000',
  address: 'Pier 8, North Harbor, Tondo, Manila 1012',
  logo: null,
  signatories: {
    raaf: { name: 'Teresita M. Villanueva', position: 'Chief Accountant' },
    report: { name: 'Ramon L. Aquino', position: 'Operations Manager' },
    unused_forms: { name: 'Lorna S. Bautista', position: 'Treasurer' },
  },
};
const AT = new Date('2026-11-02T03:04:05Z');

function raafDocument(operator: IdentitySnapshot, summary = false): RaafDocument {
  const raaf: Raaf = {
    month: '2026-10',
    holder: { type: 'user', id: 7, name: 'Juan Dela Cruz', branch: { id: 1, name: 'Calapan Pier Office' } },
    rows: [],
    totals: { beginning: 0, receipt: 0, issued: 0, ending: 0 },
    balanced: true,
    in_transit: [],
    certificate: null,
  };
  return {
    raaf,
    certificate: { number: 'RAAF-2026-10-0001', certifiedAt: AT },
    timeZone: 'Asia/Manila',
    generatedAt: AT,
    operator,
    summary,
  };
}

function report(operator: IdentitySnapshot): ReportDocument {
  return {
    operator,
    number: 'RPT-2026-0001',
    generatedAt: AT,
    generatedBy: { name: 'Ana Cruz', role: 'Accounting' },
    remarks: null,
    periodFrom: null,
    periodTo: null,
    timeZone: 'Asia/Manila',
    invoices: [],
  };
}

const emptyInventory = { date: '2026-10-31', total: 0, establishments: [], in_transit: [] };

/** The last line holding `words`: pdftotext -layout sets the closing signature slots side by side on one line. */
const lineWith = (text: string, words: string) => text.split('\n').findLast((line) => line.includes(words)) ?? '';

describe('signatories and the operator name on the printed documents', () => {
  it('when the RAAF signatory is set, then a RAAF prints the holder as accountable officer and the signatory, name and position, as reviewer', async () => {
    const text = pdfToText(await renderRaafPdf(raafDocument(OCEAN)).finish());

    expect(lineWith(text, 'Juan Dela Cruz')).toContain('Teresita M. Villanueva');
    expect(lineWith(text, 'Accountable Officer')).toContain('Chief Accountant');
    expect(lineWith(text, 'Certified 02 Nov 2026 11:04 (Asia/Manila)')).toContain('Reviewed and noted by / Date');
  });

  it('when no RAAF signatory is set, then the reviewer line is left blank over "Accounting"', async () => {
    const text = pdfToText(await renderRaafPdf(raafDocument(NO_IDENTITY)).finish());

    expect(lineWith(text, 'Accountable Officer')).toContain('Accounting');
    expect(text).not.toContain('Teresita');
  });

  it('when a roll-up or the consolidated RAAF is printed, then no holder signs as officer: "Prepared by" beside the signatory', async () => {
    const input = raafDocument(OCEAN, true);
    input.raaf.holder = { type: 'branch', id: 0, name: 'All holders (consolidated)', branch: null };
    input.certificate = null;
    const text = pdfToText(await renderRaafPdf(input).finish());

    expect(lineWith(text, 'Prepared by')).toContain('Chief Accountant');
    expect(lineWith(text, 'Teresita M. Villanueva')).not.toContain('All holders');
  });

  it('when the report signatory is set, then the report is prepared by its maker and approved by the signatory, name and position', async () => {
    const text = pdfToText(await renderReportPdf(report(OCEAN)).finish());

    expect(lineWith(text, 'Prepared by')).toMatch(/Prepared by\s+Checked by\s+Approved by/);
    expect(lineWith(text, 'Ana Cruz')).toContain('Ramon L. Aquino');
    expect(lineWith(text, 'Operations Manager')).toMatch(/Accounting\s+Operations Manager/);
    expect(text).not.toContain('Teresita');
  });

  it('when the inventory of unused forms is printed, then its signatory certifies it under a signature line, or the line stays for a hand-written name', async () => {
    const signed = pdfToText(await renderUnusedFormsPdf(emptyInventory, AT, OCEAN));
    const blank = pdfToText(await renderUnusedFormsPdf(emptyInventory, AT, NO_IDENTITY));

    expect(signed).toMatch(/Certified true and correct:\s+Lorna S\. Bautista\s+Treasurer\s+Signature over printed name \/ Date/);
    expect(blank).toMatch(/Certified true and correct:\s+Signature over printed name \/ Date/);
  });

  it('when labels and a badge are printed, then they carry the trade name, else the registered name, else "PadTrack"', async () => {
    const png = await qrPng('x');
    const label = { route: 'Batangas - Calapan', padNumber: 1, series: '1-50', code: 'PT1P1-ABC', qrPng: png };
    const texts = async (operator: IdentitySnapshot) => {
      const name = operatorShortName(operator);
      const card = await renderBadgePdf({ operator: name, name: 'Ramon Dela Cruz', role: 'Driver', branch: null, qrPng: png });
      return [
        pdfToText(await renderPadLabelsPdf([label], 'a4', name)),
        pdfToText(await renderPadLabelsPdf([label], '4x6', name)),
        pdfToText(card),
      ];
    };

    for (const text of await texts(OCEAN)) expect(text).toMatch(/^\s*OceanJet\b/);
    for (const text of await texts({ ...OCEAN, tradeName: null })) expect(text).toContain('Ocean Fast Ferries Inc.');
    for (const text of await texts(NO_IDENTITY)) expect(text).toMatch(/^\s*PadTrack\b/);
  });
});
