/** The font a text is measured in: pdfkit's resource name and size. */
interface FontStyle {
  font: string;
  size: number;
}

/** No Helvetica glyph is wider than this many ems ('@' is 1.015), so a string this short surely fits. */
const WIDEST_GLYPH_EM = 1.02;

/** Helvetica and Helvetica-Bold kern wider than the glyphs' widths only after these letters, by at most 60/1000 em ("f”"). */
const WIDER_KERN_AFTER = new Set([...'frQegzèéêëž'].map((letter) => letter.charCodeAt(0)));
const WIDER_KERN_EM = 0.06;

/**
 * Whether a text surely fits a width in the current font without asking pdfkit's line wrapper, whose kerning lookups
 * are most of a long document's drawing time. Each answer errs on the side of "ask the wrapper".
 */
export class TextFit {
  /** Per font, each character's width in ems. */
  private readonly glyphWidths = new Map<string, Map<number, number>>();

  constructor(private readonly doc: PDFKit.PDFDocument) {}

  /** True when even the widest glyphs would fit: no measuring at all. */
  surelyFits(text: string, width: number, size: number): boolean {
    return text.length * size * WIDEST_GLYPH_EM <= width;
  }

  /** True when pdfkit's line wrapper would surely keep `text` on one line of `width`, so that it need not be asked. */
  oneLine(text: string, width: number, style: FontStyle): boolean {
    if (text.includes('\n') || text.includes('\u00ad')) return false;
    return this.surelyFits(text, width, style.size) || this.widestLine(text, style) <= width;
  }

  /**
   * An upper bound of the width the line wrapper finds for `text` in the current font, without its kerning lookups,
   * which are most of pdfkit's cost: the glyphs' own widths, plus the widest kern after each letter that kerns wider.
   */
  private widestLine(text: string, style: FontStyle): number {
    let widths = this.glyphWidths.get(style.font);
    if (!widths) {
      widths = new Map();
      this.glyphWidths.set(style.font, widths);
    }
    const { size } = style;
    let ems = 0;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      let glyph = widths.get(code);
      if (glyph === undefined) {
        glyph = this.doc.widthOfString(text[i]) / size;
        widths.set(code, glyph);
      }
      ems += WIDER_KERN_AFTER.has(code) ? glyph + WIDER_KERN_EM : glyph;
    }
    return ems * size;
  }

  /** The longest start of `text` that fits `width` in the current font with an ellipsis after it, or the whole text when it fits. */
  cut(text: string, width: number): string {
    if (this.doc.widthOfString(text) <= width) return text;
    let low = 0;
    let high = text.length;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (this.doc.widthOfString(`${text.slice(0, middle).trimEnd()}\u2026`) <= width) low = middle;
      else high = middle - 1;
    }
    return `${text.slice(0, low).trimEnd()}\u2026`;
  }
}
