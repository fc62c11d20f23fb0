import PDFDocument from 'pdfkit';

/** The colours every PadTrack document is drawn in. */
export const PALETTE = {
  ink: '#1a1a1a',
  muted: '#5b6470',
  rule: '#c9ced6',
  accent: '#1f3a5f',
  shade: '#eef1f5',
  stripe: '#f7f8fa',
  white: '#ffffff',
} as const;

export type Align = 'left' | 'right' | 'center';
export type Weight = 'regular' | 'bold';

export interface PdfSetup {
  size: 'A4' | [number, number];
  landscape?: boolean;
  margins: { top: number; right: number; bottom: number; left: number };
  /** Height of the page header: the body starts this far below the top margin. */
  headerHeight?: number;
  /** Room kept between the body and the footer line. */
  footerGap?: number;
  info: { title: string; author?: string; subject?: string; createdAt?: Date };
}

/** No Helvetica glyph is wider than this many ems ('@' is 1.015), so a string this short surely fits. */
const WIDEST_GLYPH_EM = 1.02;

/** The pdfkit internals the fast paths need: the current font's resource name, ascender, size and reference, and the page's fonts. */
export interface PdfFontState {
  _font: { id: string; ascender: number; ref(): unknown };
  _fontSize: number;
  page: { fonts: Record<string, unknown>; height: number };
}

/**
 * A pdfkit document with PadTrack's page metrics, buffered to a Buffer, whose pages are all kept until
 * finish() so footers can say "Page X of Y". Colour and font changes are written only when they change:
 * long documents draw thousands of cells in a few styles.
 */
export class Pdf {
  readonly doc: PDFKit.PDFDocument;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly width: number;
  readonly pageWidth: number;
  readonly pageHeight: number;
  readonly bodyTop: number;
  readonly bodyBottom: number;
  /** Where the footer's text sits. */
  readonly footerY: number;
  private readonly buffer: Promise<Buffer>;
  private style = { font: '', size: 0, color: '' };
  private readonly lineHeights = new Map<string, number>();

  constructor(setup: PdfSetup) {
    this.doc = new PDFDocument({
      size: setup.size,
      layout: setup.landscape ? 'landscape' : 'portrait',
      margins: setup.margins,
      bufferPages: true,
      autoFirstPage: false,
      compress: true,
      displayTitle: true,
      info: {
        Title: setup.info.title,
        ...(setup.info.author === undefined ? {} : { Author: setup.info.author }),
        ...(setup.info.subject === undefined ? {} : { Subject: setup.info.subject }),
        Creator: 'PadTrack',
        Producer: 'PadTrack',
        ...(setup.info.createdAt ? { CreationDate: setup.info.createdAt } : {}),
      },
    });
    const chunks: Buffer[] = [];
    this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    this.buffer = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    const [width, height] = setup.size === 'A4' ? [595.28, 841.89] : setup.size;
    [this.pageWidth, this.pageHeight] = setup.landscape ? [height, width] : [width, height];
    const { margins } = setup;
    this.left = margins.left;
    this.right = this.pageWidth - margins.right;
    this.top = margins.top;
    this.width = this.right - this.left;
    this.bodyTop = margins.top + (setup.headerHeight ?? 0);
    this.footerY = this.pageHeight - margins.bottom;
    this.bodyBottom = this.footerY - (setup.footerGap ?? 0);
  }

  /** Calls draw at the top of every page from now on; the drawing is recorded once and replayed, as it is most of a page's cost. */
  onEveryPage(draw: () => void): void {
    const header = this.replayed(draw);
    this.doc.on('pageAdded', () => {
      this.forgetStyle();
      header();
      this.doc.x = this.left;
      this.doc.y = this.bodyTop;
    });
  }

  addPage(): void {
    this.doc.addPage();
  }

  /** Starts a new page when `height` does not fit above the footer; true when it did. */
  ensureSpace(height: number): boolean {
    if (this.doc.y + height <= this.bodyBottom) return false;
    this.doc.addPage();
    return true;
  }

  font(weight: Weight, size: number, color: string = PALETTE.ink): void {
    const name = weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica';
    if (this.style.font !== name) {
      this.doc.font(name);
      this.style.font = name;
    }
    if (this.style.size !== size) {
      this.doc.fontSize(size);
      this.style.size = size;
    }
    this.fill(color);
  }

  fill(color: string): void {
    if (this.style.color !== color) {
      this.doc.fillColor(color);
      this.style.color = color;
    }
  }

  /** Call after drawing that went around font() and fill(), or on a new page, whose graphics state starts afresh. */
  forgetStyle(): void {
    this.style = { font: '', size: 0, color: '' };
  }

  rect(x: number, y: number, width: number, height: number, color: string): void {
    this.fill(color);
    this.doc.rect(x, y, width, height).fill();
  }

  /** A horizontal line, across the body unless `from`/`to` say otherwise. */
  hline(y: number, options: { color?: string; lineWidth?: number; from?: number; to?: number } = {}): void {
    this.doc
      .moveTo(options.from ?? this.left, y)
      .lineTo(options.to ?? this.right, y)
      .lineWidth(options.lineWidth ?? 0.5)
      .strokeColor(options.color ?? PALETTE.rule)
      .stroke();
  }

  /** Height of a text block in the current font; a short one-line value skips the line wrapper, which dominates render time. */
  textHeight(text: string, width: number): number {
    const key = `${this.style.size}|${this.style.font}`;
    let line = this.lineHeights.get(key);
    if (line === undefined) {
      line = this.doc.heightOfString('Xg', { width: 1000 });
      this.lineHeights.set(key, line);
    }
    if (!text.includes('\n') && (this.surelyFits(text, width) || this.doc.widthOfString(text) <= width)) return line;
    return this.doc.heightOfString(text, { width });
  }

  /** Draws a value in a box in the current font; one that fits on a line is placed directly, without the (slow) line wrapper. */
  boxText(text: string, x: number, y: number, width: number, align: Align = 'left'): void {
    const single = !text.includes('\n') && (align === 'left' ? this.surelyFits(text, width) : true);
    const textWidth = single && align !== 'left' ? this.doc.widthOfString(text) : 0;
    if (single && textWidth <= width) {
      const offset = align === 'right' ? width - textWidth : align === 'center' ? (width - textWidth) / 2 : 0;
      this.doc.text(text, x + offset, y, { lineBreak: false });
    } else {
      this.doc.text(text, x, y, { width, align });
    }
  }

  /** One line of text at (x, y), cut with an ellipsis when wider than `width`. */
  lineText(text: string, x: number, y: number, width: number, align: Align = 'left'): void {
    this.doc.text(text, x, y, { width, align, lineBreak: false, ellipsis: true });
  }

  /** Calls draw on every page, with its number and the page count, once the body is complete. */
  eachPage(draw: (page: number, count: number) => void): void {
    const range = this.doc.bufferedPageRange();
    for (let i = 0; i < range.count; i += 1) {
      this.doc.switchToPage(range.start + i);
      this.forgetStyle();
      draw(i + 1, range.count);
    }
  }

  finish(): Promise<Buffer> {
    this.doc.end();
    return this.buffer;
  }

  /**
   * Draws once, then replays the drawing's operators (and registers its fonts) on every later call: a drawing
   * repeated on every page of a long document costs little after the first.
   */
  replayed(draw: () => void): () => void {
    const state = this.doc as unknown as PdfFontState;
    let recorded: { content: string; fonts: Record<string, unknown>; x: number; y: number } | null = null;
    return () => {
      if (recorded) {
        this.doc.addContent(recorded.content);
        Object.assign(state.page.fonts, recorded.fonts);
      } else {
        const writes: string[] = [];
        const addContent = this.doc.addContent.bind(this.doc);
        this.doc.addContent = (data: string) => {
          writes.push(data);
          return addContent(data);
        };
        try {
          draw();
        } finally {
          this.doc.addContent = addContent;
        }
        recorded = { content: writes.join('\n'), fonts: { ...state.page.fonts }, x: this.doc.x, y: this.doc.y };
      }
      this.doc.x = recorded.x;
      this.doc.y = recorded.y;
      this.forgetStyle();
    };
  }

  private surelyFits(text: string, width: number): boolean {
    return text.length * this.style.size * WIDEST_GLYPH_EM <= width;
  }
}
