import type { PdfFontState } from './document.ts';
import { contentBytes } from './text-lines.ts';

/**
 * Number cells as raw text operators, one block per page. A consolidated RAAF has tens of thousands of
 * range lines, and pdfkit's text() (line wrapper, kerning, its own transforms per call) costs about fifteen
 * times as much per cell. Cells hold digits and commas only and are right-aligned by the font's widths;
 * add() refuses one too wide for its cell, for the caller to draw with an ellipsis.
 */
export class NumberCells {
  private readonly state: PdfFontState;
  private readonly digit: number;
  private readonly comma: number;
  private readonly ascent: number;
  private readonly xs = new Map<number, string>();
  private parts: string[] = [];

  /** Call with the cells' font and size current; `placed` hears of each cell's text and where it starts, for the layout test. */
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly placed: (text: string, x: number, top: number, width: number) => void = () => undefined,
  ) {
    // pdfkit's typings leave out the internals PdfFontState names.
    this.state = doc as unknown as PdfFontState;
    this.digit = doc.widthOfString('0');
    this.comma = doc.widthOfString(',');
    this.ascent = (this.state._font.ascender / 1000) * this.state._fontSize;
  }

  add(text: string, right: number, width: number, top: number): boolean {
    const key = right * 64 + text.length;
    let x = this.xs.get(key);
    if (x === undefined) {
      let textWidth = 0;
      for (let i = 0; i < text.length; i += 1) textWidth += text.charCodeAt(i) === 44 ? this.comma : this.digit;
      if (textWidth > width) return false;
      x = (right - textWidth).toFixed(2);
      this.xs.set(key, x);
    }
    this.placed(text, Number(x), top, right - Number(x));
    this.parts.push(`1 0 0 1 ${x} ${(this.state.page.height - top - this.ascent).toFixed(2)} Tm (${text}) Tj`);
    return true;
  }

  /** Writes the page's cells; call with the cells' font and colour current, before the page changes. */
  flush(): void {
    if (this.parts.length === 0) return;
    const { _font: font, _fontSize: size, page } = this.state;
    if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
    this.doc.addContent(
      contentBytes(`q 1 0 0 -1 0 ${page.height.toFixed(2)} cm BT /${font.id} ${size.toFixed(2)} Tf\n${this.parts.join('\n')}\nET Q`),
    );
    this.parts = [];
  }
}
