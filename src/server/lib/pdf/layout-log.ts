/** A drawing step the layout test checks the printed words against: a filled rectangle, a table cell's box, or a text's origin. */
export interface LayoutMark {
  kind: 'fill' | 'cell' | 'text';
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
}

/** Where new documents log their marks; null (always, outside the layout test) records nothing. */
let layoutLog: { marks: LayoutMark[][] } | null = null;

/** Makes every Pdf created from now on log its fills, table cells and texts in drawing order, one list per document; null stops. */
export function recordLayout(log: { marks: LayoutMark[][] } | null): void {
  layoutLog = log;
}

/**
 * A new document's list of marks while the layout is being recorded, else null. Every text drawn through pdfkit's
 * text() is logged with where it starts, for the layout test to tell which drawing a printed word came from.
 */
export function layoutMarks(doc: PDFKit.PDFDocument, page: () => number): LayoutMark[] | null {
  if (!layoutLog) return null;
  const marks: LayoutMark[] = [];
  layoutLog.marks.push(marks);
  const text = doc.text.bind(doc);
  // Cast: pdfkit's text() is overloaded; the wrapper passes every form on unchanged.
  doc.text = ((value: string, x?: number | PDFKit.Mixins.TextOptions, y?: number, options?: PDFKit.Mixins.TextOptions) => {
    const at = { x: typeof x === 'number' ? x : doc.x, y: typeof y === 'number' ? y : doc.y };
    marks.push({ kind: 'text', page: page(), ...at, width: 0, height: 0, text: String(value) });
    return typeof x === 'number' ? text(value, x, y, options) : text(value, x);
  }) as typeof doc.text;
  return marks;
}
