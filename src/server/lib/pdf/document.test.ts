import { describe, expect, it } from 'vitest';
import { pdfToText } from '../../test/pdf.ts';
import { Pdf, type PdfSteps } from './document.ts';
import { pageFooters } from './draw.ts';

function sheet(): Pdf {
  return new Pdf({ size: 'A4', margins: { top: 40, right: 48, bottom: 48, left: 48 }, footerGap: 18, info: { title: 'Sheet' } });
}

/** Steps that draw numbered lines until `pages` pages are begun. */
function* lines(pdf: Pdf, pages: number): PdfSteps {
  for (let line = 1; pdf.pageCount < pages || pdf.doc.y + 12 <= pdf.bodyBottom; line += 1) {
    pdf.ensureSpace(12);
    pdf.font('regular', 9);
    pdf.doc.text(`Line ${line}`, pdf.left, pdf.doc.y, { lineBreak: false });
    pdf.doc.y += 12;
    yield;
  }
}

describe('Pdf', () => {
  it('when a footer is set after a page was written out, then it is refused rather than missing from that page', async () => {
    const pdf = sheet();
    pdf.addPage();
    const steps = lines(pdf, 3);
    pdf.drawnBy(steps);
    while (pdf.pageCount < 2) steps.next();

    expect(() => pageFooters(pdf, 'Late', { size: 7.5 })).toThrow(/written out/);
  });

  it('when "Page N of Y" is set before the first page, then each page gets it as it begins and Y is the count the document ends with', async () => {
    const pdf = sheet();
    pageFooters(pdf, 'Sheet', { size: 7.5, ruled: true });
    pdf.addPage();
    const text = pdfToText(await pdf.drawnBy(lines(pdf, 12)).finish());

    const pages = text.split('\f').filter((page) => page.trim());
    expect(pages).toHaveLength(12);
    pages.forEach((page, i) => expect(page).toMatch(new RegExp(`Sheet\\s+Page ${i + 1} of 12\\n`)));
  });
});
