import type { PdfFontState } from './document.ts';

/** The WinAnsi bytes of the characters Windows-1252 places at 0x80–0x9F, the only ones above Latin-1 pdfText() keeps. */
const CP1252_BYTES = new Map(
  [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'].map((char, i) => [char.charCodeAt(0), 0x80 + i]),
);
/** A line of pdfText() output as a PDF literal string in the standard fonts' WinAnsi encoding ("?" for anything else). */
function winAnsiString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[()\\]/g, '\\$&')})`;
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${text[i]}`;
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += text[i];
    else out += String.fromCharCode(CP1252_BYTES.get(code) ?? 0x3f);
  }
  return `(${out})`;
}

/**
 * Operators as the bytes pdfkit would write for them (each character's low byte, then a line break), converted natively:
 * pdfkit converts a string a character at a time, which a page of thousands of remark lines pays for.
 */
export const contentBytes = (operators: string): Buffer => Buffer.from(`${operators}\n`, 'latin1');

/**
 * Lines of text as raw text operators, one block per page, unkerned (TextFit.wrap measures them so): a head office's
 * RAAF has thousands of remark lines, and pdfkit's text() (kerning lookups, its own transforms per call) costs many
 * times as much per line. Call with the lines' font and size current; `placed` hears of each line, for the layout test.
 */
export class TextLines {
  private readonly state: PdfFontState;
  private readonly ascent: number;
  private parts: string[] = [];
  /** Where the last line began; NaN at the start of a block. */
  private lastX = NaN;
  private lastTop = NaN;

  /** `leading` is the line height: a line right under the one before is written as "next line", its text alone. */
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly leading: number,
    private readonly placed: (text: string, x: number, top: number) => void = () => undefined,
  ) {
    // pdfkit's typings leave out the internals PdfFontState names.
    this.state = doc as unknown as PdfFontState;
    this.ascent = (this.state._font.ascender / 1000) * this.state._fontSize;
  }

  add(text: string, x: number, top: number): void {
    this.placed(text, x, top);
    const next = this.lastX === x && Math.abs(this.lastTop + this.leading - top) < 0.01;
    this.parts.push(
      next
        ? `${winAnsiString(text)} '`
        : `1 0 0 1 ${x.toFixed(2)} ${(this.state.page.height - top - this.ascent).toFixed(2)} Tm ${winAnsiString(text)} Tj`,
    );
    this.lastX = x;
    this.lastTop = top;
  }

  /** Writes the page's lines; call with their font and colour current, before the page changes. */
  flush(): void {
    if (this.parts.length === 0) return;
    const { _font: font, _fontSize: size, page } = this.state;
    if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
    this.doc.addContent(
      contentBytes(
        `q 1 0 0 -1 0 ${page.height.toFixed(2)} cm BT /${font.id} ${size.toFixed(2)} Tf ${this.leading.toFixed(4)} TL\n${this.parts.join('\n')}\nET Q`,
      ),
    );
    this.parts = [];
    this.lastX = NaN;
  }
}
