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
  private readonly glyphWidths = new Map<string, Float64Array>();

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
    const widths = this.widthsOf(style);
    let ems = 0;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      const glyph = this.glyphEms(code, style, widths);
      ems += WIDER_KERN_AFTER.has(code) ? glyph + WIDER_KERN_EM : glyph;
    }
    return ems * style.size;
  }

  /** A font's (the current one's) widths in ems of the characters up to 0xFF, each filled in when first measured; -1 until then. */
  private widthsOf(style: FontStyle): Float64Array {
    let widths = this.glyphWidths.get(style.font);
    if (!widths) {
      widths = new Float64Array(256).fill(-1);
      this.glyphWidths.set(style.font, widths);
    }
    return widths;
  }

  /** A character's width in ems in a font (the current one), measured once. */
  private glyphEms(code: number, style: FontStyle, widths = this.widthsOf(style)): number {
    if (code > 0xff) return this.doc.widthOfString(String.fromCharCode(code)) / style.size;
    let glyph = widths[code];
    if (glyph < 0) {
      glyph = this.doc.widthOfString(String.fromCharCode(code)) / style.size;
      widths[code] = glyph;
    }
    return glyph;
  }

  /**
   * `text` broken at spaces into lines no wider than `width` in the current font, measured by the glyphs' cached widths
   * alone, as TextLines draws them (unkerned): no line wrapper and no kerning lookups. Null when it has a line break or
   * a word wider than a line, which only pdfkit's wrapper breaks.
   */
  wrap(text: string, width: number, style: FontStyle): string[] | null {
    if (text.includes('\n') || text.includes('\u00ad')) return null;
    if (this.surelyFits(text, width, style.size)) return [text];
    const room = width / style.size;
    const widths = this.widthsOf(style);
    const space = this.glyphEms(32, style, widths);
    const lines: string[] = [];
    let start = 0;
    let lineEms = 0;
    let wordStart = 0;
    let wordEms = 0;
    for (let i = 0; i <= text.length; i += 1) {
      const code = i < text.length ? text.charCodeAt(i) : 32;
      if (code !== 32) {
        const glyph = code <= 0xff ? widths[code] : -1;
        wordEms += glyph >= 0 ? glyph : this.glyphEms(code, style, widths);
        continue;
      }
      if (wordEms > room) return null;
      if (wordStart > start && lineEms + space + wordEms > room) {
        lines.push(text.slice(start, wordStart - 1));
        start = wordStart;
        lineEms = 0;
      }
      lineEms += (wordStart > start ? space : 0) + wordEms;
      wordStart = i + 1;
      wordEms = 0;
    }
    lines.push(text.slice(start));
    return lines;
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
