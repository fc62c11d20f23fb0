import { describe, expect, it } from 'vitest';
import { NO_IDENTITY } from '../../../shared/schemas/operator-identity.ts';
import { pdfToText } from '../../test/pdf.ts';
import { renderCountCertificatePdf, type CountCertificate } from './count-certificate-pdf.ts';
import { renderNoticeOfLossPdf, type NoticeOfLoss } from './notice-of-loss-pdf.ts';
import { renderTransmittalSlipPdf, type TransmittalSlip } from './transmittal-slip-pdf.ts';

const AT = '05 Nov 2026 17:30 (Asia/Manila)';
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const pages = (text: string) => text.split('\f').filter((page) => page.trim());

function slip(padCount: number): TransmittalSlip {
  return {
    invoiceId: 12,
    type: 'Turnover',
    status: 'In-Transit',
    from: 'Calapan Terminal',
    to: 'Head Office',
    requestedBy: 'Ana Cruz',
    createdAt: AT,
    printedAt: AT,
    released: { name: 'Ana Cruz', position: 'Ticketing Officer, Calapan Terminal', at: AT },
    carried: { name: 'Mario Messenger', position: 'Messenger', at: '' },
    received: { name: '', position: 'Receiving officer, Head Office', at: '' },
    pads: Array.from({ length: padCount }, (_, i) => ({
      route: 'Ocean Fast Ferries Inc. - Batangas - Calapan',
      number: 100 + i,
      series: `${5001 + i * 50}-${5050 + i * 50}`,
      qty: 50,
    })),
    lostOnTheWay: [],
    qrPng: PNG_1X1,
    operator: NO_IDENTITY,
  };
}

function certificate(padCount: number): CountCertificate {
  return {
    id: 7,
    status: 'closed',
    holder: 'Ana Cruz',
    counter: { name: 'Celia Custodian', position: 'Custodian, Head Office' },
    signer: { name: 'Ana Cruz', position: 'Ticketing Officer, Calapan Terminal' },
    startedAt: AT,
    closedAt: AT,
    signedOffAt: AT,
    printedAt: AT,
    signaturePng: null,
    pads: Array.from({ length: padCount }, (_, i) => ({
      route: 'Batangas - Calapan',
      padNumber: 100 + i,
      series: `${5001 + i * 50}-${5050 + i * 50}`,
      state: 'Found',
      firstUnused: String(5001 + i * 50),
      books: String(5001 + i * 50),
    })),
    variances: Array.from({ length: 3 }, (_, i) => ({
      pad: `Pad ${100 + i} (Batangas - Calapan)`,
      kind: 'Pad missing',
      detail: 'Not found with Ana Cruz',
      resolution: 'Accepted: explained by the holder (Celia Custodian)',
    })),
    operator: NO_IDENTITY,
  };
}

describe('transmittal slip PDF', () => {
  it('when the slip is printed, then the people stand by name and position under Released / Carried / Received, and pad and receipt counts in their own columns', async () => {
    const text = pdfToText(await renderTransmittalSlipPdf(slip(2)));
    expect(text).toMatch(/Route\s+Pad no\.\s+Series range\s+Pads\s+Receipts/);
    expect(text).toMatch(/101\s+5051-5100\s+1\s+50/);
    expect(text).toMatch(/Total\s+2\s+100\n/);
    expect(text).toMatch(/Released by\s+Carried by\s+Received by\n\s*Ana Cruz\s+Mario Messenger\s+Name: _+/);
    expect(text).toMatch(/Ticketing Officer, Calapan Terminal\s+Messenger\s+Receiving officer, Head Office/);
    expect(text).toContain(`Written                     ${AT}`);
    expect(pages(text)).toHaveLength(1);
  });

  it('when the pads run over pages, then the signature lines stay with the last rows and the totals', async () => {
    for (const count of [20, 24, 28, 32, 36, 40]) {
      const printed = pages(pdfToText(await renderTransmittalSlipPdf(slip(count))));
      const last = printed.at(-1) ?? '';
      expect(last, `${count} pads`).toMatch(/Released by\s+Carried by\s+Received by/);
      expect(last, `${count} pads`).toMatch(new RegExp(`${100 + count - 1}\\s+\\d+-\\d+\\s+1\\s+50\\s+Total\\s+${count}\\s+${count * 50}`));
    }
  });
});

describe('count certificate PDF', () => {
  it('when the certificate runs over pages, then the counter and holder sign by name and position under the last rows', async () => {
    for (const count of [10, 30, 38, 42, 46, 50]) {
      const printed = pages(pdfToText(await renderCountCertificatePdf(certificate(count))));
      const last = printed.at(-1) ?? '';
      expect(last, `${count} pads`).toMatch(
        /Counted by\s+Holder\n\s*Celia Custodian\s+Ana Cruz\n\s*Custodian, Head Office\s+Ticketing Officer, Calapan Terminal/,
      );
      expect(last, `${count} pads`).toContain('Pad 102 (Batangas -');
    }
  });

  it('when the holder drew a signature, then it sits above the holder line and the certificate still reads every time with its zone', async () => {
    const text = pdfToText(await renderCountCertificatePdf({ ...certificate(3), signaturePng: PNG_1X1 }));
    expect(text).toMatch(/Counted by\s+Holder/);
    expect(text.match(/\d{2} \w{3} \d{4} \d{2}:\d{2}(?! \()/g) ?? []).toEqual([]);
    expect(text.split('(Asia/Manila)').length - 1).toBeGreaterThanOrEqual(6);
  });
});

describe('Notice of Loss PDF', () => {
  const notice: NoticeOfLoss = {
    number: 'LOSS-2026-0003',
    formKind: 'Official Receipts / Invoices',
    operator: { ...NO_IDENTITY, registeredName: 'Ocean Fast Ferries Inc.', tin: '004-512-889-000', address: 'Pier 4, Manila' },
    signatory: { name: 'Teresa Signatory', position: 'Head of Accounting' },
    lines: [
      {
        route: 'Ocean - Batangas - 004',
        padNumber: 12,
        from: 5101,
        to: 5150,
        qty: 50,
        atp: 'ATP 0412 of 10 Jan 2026',
        invoice: 'Turnover #12',
      },
    ],
    transitNotes: ['Pad 12 was in transit on Turnover #12. That invoice no longer carries it.'],
    place: 'Calapan pier',
    occurredAt: new Date('2026-11-20T00:30:00Z'),
    circumstances: 'Fell into the sea.',
    reportedBy: { name: 'Mario Messenger', position: 'Messenger' },
    reportedAt: new Date('2026-11-20T02:00:00Z'),
    confirmedBy: { name: 'Alma Accounting', position: 'Accounting' },
    confirmedAt: new Date('2026-11-21T02:00:00Z'),
    papers: [],
    noAffidavitReason: 'Affidavit to follow',
    timeZone: 'Asia/Manila',
  };

  it('when a notice has no papers, then it says so, prints the reason, and signs with names and positions on one page', async () => {
    const text = pdfToText(await renderNoticeOfLossPdf(notice));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Ocean Fast Ferries Inc.');
    expect(flat).toContain('Papers attached No papers attached.');
    expect(flat).toContain('No affidavit of loss attached. Reason given on confirmation: Affidavit to follow');
    expect(flat).toContain('5101 to 5150 50 ATP 0412 of 10 Jan 2026 Turnover #12');
    expect(flat).toContain('Mario Messenger Alma Accounting Teresa Signatory Messenger Accounting Head of Accounting');
    expect(flat).toContain('20 Nov 2026 10:00 (Asia/Manila) 21 Nov 2026 10:00 (Asia/Manila)');
    expect(pages(text)).toHaveLength(1);
  });
});
