import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type PDFKitDocument from 'pdfkit';
import { layoutMarks, type LayoutMark } from './layout-log.ts';
import { PageStream } from './page-stream.ts';
import { TextFit } from './text-fit.ts';

let pdfkit: typeof PDFKitDocument | undefined;

/**
 * A pdfkit document. pdfkit and its font decoders load with the first PDF rather than with the server's start, through
 * Node's own loader so that every renderer can stay synchronous.
 */
export function newPdfDocument(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  // Cast: createRequire returns any; this is pdfkit's CommonJS export, typed by @types/pdfkit.
  pdfkit ??= createRequire(import.meta.url)('pdfkit') as typeof PDFKitDocument;
  return new pdfkit(options);
}

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

/** The resource name of the page count's Form XObject. */
const PAGE_COUNT = 'PageCount';

/** The page count's box is this many ems wide: room for ten digits. */
const PAGE_COUNT_EMS = 6;

/** The pdfkit internals the fast paths need (its typings leave them out, hence the casts to this type): the current font's resource name, ascender, size and reference, and the page's resources. */
export interface PdfFontState {
  _font: { id: string; ascender: number; ref(): unknown };
  _fontSize: number;
  page: { fonts: Record<string, unknown>; xobjects: Record<string, unknown>; height: number };
}

/** A document's drawing, step by step: whoever runs it may pause between steps, and does so at page breaks. */
export type PdfSteps = Generator<unknown, void, undefined>;

type Style = { font: string; size: number; color: string };

/**
 * A pdfkit document with PadTrack's page metrics, written out as a Buffer (finish) or a stream (stream).
 * What is drawn before finish() keeps its pages until then; a drawing given to drawnBy() runs a page at a
 * time and each page is written out as the next begins, so a long document is never whole in memory.
 * Colour and font changes are written only when they change: long documents draw thousands of cells in a few styles.
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
  private style: Style = { font: '', size: 0, color: '' };
  private readonly fit: TextFit;
  private readonly lineHeights = new Map<string, number>();
  private readonly pageStarts: Array<(page: number) => void> = [];
  private pages = 0;
  private steps: PdfSteps | null = null;
  private pageCountForm: { ref: PDFKit.PDFKitReference; content: (count: number) => string } | null = null;
  private readonly marks: LayoutMark[] | null;

  constructor(setup: PdfSetup) {
    this.doc = newPdfDocument({
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
    this.fit = new TextFit(this.doc);
    this.doc.on('pageAdded', () => this.pageStarted());
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
    this.marks = layoutMarks(this.doc, () => this.pages);
  }

  /** Logs a drawing step when the layout is being recorded. */
  mark(kind: LayoutMark['kind'], x: number, y: number, width: number, height: number, text = ''): void {
    this.marks?.push({ kind, page: this.pages, x, y, width, height, text });
  }

  /** Pages begun so far. */
  get pageCount(): number {
    return this.pages;
  }

  /** Calls draw at the top of every page from now on; the drawing is recorded once and replayed, as it is most of a page's cost. */
  onEveryPage(draw: () => void): void {
    const header = this.replayed(draw);
    this.pageStarts.push(() => {
      header();
      this.doc.x = this.left;
      this.doc.y = this.bodyTop;
    });
  }

  /**
   * Calls draw with the page's number on every page: now on those already begun (held, as nothing was written out
   * yet), then on each page as it begins, so no page has to be kept for it. Throws once a page has been written out.
   */
  everyPage(draw: (page: number) => void): void {
    const { start, count } = this.doc.bufferedPageRange();
    if (start > 0) throw new Error('Pages were written out before this drawing was set for every page');
    const decorate = (page: number) => {
      const { x, y } = this.doc;
      this.forgetStyle();
      draw(page);
      this.doc.x = x;
      this.doc.y = y;
    };
    if (count > 0) {
      const kept = this.style;
      for (let i = 0; i < count; i += 1) {
        this.doc.switchToPage(i);
        decorate(i + 1);
      }
      this.restoreStyle(kept);
    }
    this.pageStarts.push(decorate);
  }

  /**
   * Writes the document's final page count at (x, y) in the current font, size and colour (as at the first call, set
   * with font()). The count is known only at the end, so every page places one Form XObject written when the document ends.
   */
  pageTotal(x: number, y: number): void {
    // Cast: pdfkit's typings omit its internal font state (current page fonts), which this reads and restores.
    const state = this.doc as unknown as PdfFontState;
    const { _font: font, _fontSize: size } = state;
    if (!this.pageCountForm) {
      const fill = rgb(this.style.color);
      this.pageCountForm = {
        ref: this.doc.ref({
          Type: 'XObject',
          Subtype: 'Form',
          BBox: [0, -size, PAGE_COUNT_EMS * size, 2 * size],
          Resources: { Font: { [font.id]: font.ref() } },
        }),
        content: (count) => `BT /${font.id} ${size} Tf ${fill} rg 0 0 Td (${count}) Tj ET`,
      };
    }
    state.page.xobjects[PAGE_COUNT] = this.pageCountForm.ref;
    const baseline = y + (font.ascender / 1000) * size;
    this.doc.addContent(`q 1 0 0 -1 ${x.toFixed(3)} ${baseline.toFixed(3)} cm /${PAGE_COUNT} Do Q`);
  }

  /** Sets the drawing finish() or stream() runs, a step at a time; its pages are written out as the next begins. */
  drawnBy(steps: PdfSteps): this {
    this.steps = steps;
    this.doc.options.bufferPages = false;
    return this;
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
    this.mark('fill', x, y, width, height);
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

  /** Height of a text block in the current font; a value that surely fits on one line is not measured by the line wrapper. */
  textHeight(text: string, width: number): number {
    if (this.fit.oneLine(text, width, this.style)) return this.lineHeight();
    return this.doc.heightOfString(text, { width });
  }

  /** One line's height in the current font, measured once per font and size. */
  lineHeight(): number {
    const key = `${this.style.size}|${this.style.font}`;
    let line = this.lineHeights.get(key);
    if (line === undefined) {
      line = this.doc.heightOfString('Xg', { width: 1000 });
      this.lineHeights.set(key, line);
    }
    return line;
  }

  /**
   * A paragraph in the current font, its lines laid out once by TextFit.wrap (no line wrapper), each lineHeight() tall;
   * null when only pdfkit's wrapper can break it (a line break, a word wider than `width`).
   */
  wrappedLines(text: string, width: number): string[] | null {
    return this.fit.wrap(text, width, this.style);
  }

  /** Draws a value in a box in the current font; one that fits on a line is placed directly, without the (slow) line wrapper. */
  boxText(text: string, x: number, y: number, width: number, align: Align = 'left'): void {
    const single = !text.includes('\n') && (align === 'left' ? this.fit.surelyFits(text, width, this.style.size) : true);
    const textWidth = single && align !== 'left' ? this.doc.widthOfString(text) : 0;
    if (single && textWidth <= width) {
      const offset = align === 'right' ? width - textWidth : align === 'center' ? (width - textWidth) / 2 : 0;
      this.doc.text(text, x + offset, y, { lineBreak: false });
    } else {
      this.doc.text(text, x, y, { width, align });
    }
  }

  /** One line of text at (x, y), cut with an ellipsis when wider than `width`; a short one is placed without the line wrapper. */
  lineText(text: string, x: number, y: number, width: number, align: Align = 'left'): void {
    const line = text.replace(/\n/g, ' ');
    if (align !== 'center' && this.fit.surelyFits(line, width, this.style.size)) {
      const offset = align === 'right' ? width - this.doc.widthOfString(line.replace(/\s+$/, '')) : 0;
      this.doc.text(line, x + offset, y, { lineBreak: false });
      return;
    }
    const shown = this.fit.cut(line, width);
    const textWidth = this.doc.widthOfString(shown);
    const offset = align === 'right' ? width - textWidth : align === 'center' ? (width - textWidth) / 2 : 0;
    this.doc.text(shown, x + offset, y, { lineBreak: false });
  }

  /** Draws what is left and resolves to the whole file, for a copy that is stored or mailed; yields to the event loop at page breaks. */
  async finish(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    while (!this.drawPage()) await nextTurn();
    return done;
  }

  /**
   * The file as a stream that draws the next page only when its reader wants more bytes. The first page is drawn
   * now, so that an error in it is thrown here, while the caller can still answer with an error instead of a file.
   */
  stream(): Readable {
    return new PageStream(this.doc, () => this.drawPage());
  }

  /**
   * Draws once, then replays the drawing's operators (and registers its fonts) on every later call: a drawing
   * repeated on every page of a long document costs little after the first.
   */
  replayed(draw: () => void): () => void {
    // Cast: pdfkit's typings omit its internal font state (current page fonts), which this reads and restores.
    const state = this.doc as unknown as PdfFontState;
    let recorded: { content: string; fonts: Record<string, unknown>; x: number; y: number; marks: LayoutMark[] } | null = null;
    return () => {
      if (recorded) {
        this.doc.addContent(recorded.content);
        Object.assign(state.page.fonts, recorded.fonts);
        for (const mark of recorded.marks) this.marks?.push({ ...mark, page: this.pages });
      } else {
        const firstMark = this.marks?.length ?? 0;
        const writes: string[] = [];
        const addContent = this.doc.addContent.bind(this.doc);
        this.doc.addContent = (data: string | Uint8Array) => {
          writes.push(typeof data === 'string' ? data : Buffer.from(data).toString('latin1').replace(/\n$/, ''));
          return addContent(data);
        };
        try {
          draw();
        } finally {
          this.doc.addContent = addContent;
        }
        const marks = this.marks?.slice(firstMark) ?? [];
        recorded = { content: writes.join('\n'), fonts: { ...state.page.fonts }, x: this.doc.x, y: this.doc.y, marks };
      }
      this.doc.x = recorded.x;
      this.doc.y = recorded.y;
      this.forgetStyle();
    };
  }

  /** A new page's graphics state starts afresh: draws what every page begins with, then sets the style the body was in again. */
  private pageStarted(): void {
    this.pages += 1;
    const kept = this.style;
    this.forgetStyle();
    for (const start of this.pageStarts) start(this.pages);
    this.restoreStyle(kept);
  }

  private restoreStyle(kept: Style): void {
    this.forgetStyle();
    if (kept.font) this.doc.font(kept.font);
    if (kept.size) this.doc.fontSize(kept.size);
    if (kept.color) this.doc.fillColor(kept.color);
    this.style = kept;
  }

  /** Draws up to the next page break, or to the end and then ends the document (true). */
  private drawPage(): boolean {
    if (this.steps) {
      const page = this.pages;
      while (this.pages === page) {
        if (this.steps.next().done) {
          this.steps = null;
          break;
        }
      }
      if (this.steps) return false;
    }
    this.pageCountForm?.ref.end(this.pageCountForm.content(this.pages));
    this.doc.end();
    return true;
  }
}

/** '#5b6470' as the PDF fill operands "0.3569 0.3922 0.4392". */
const rgb = (hex: string) => [1, 3, 5].map((i) => (parseInt(hex.slice(i, i + 2), 16) / 255).toFixed(4)).join(' ');
