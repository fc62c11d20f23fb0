import { Readable } from 'node:stream';

/**
 * The bytes of a document drawn a page at a time: a page is drawn (on a later turn of the event loop) only when
 * the reader asks for more, so a slow reader holds the drawing back instead of filling memory.
 */
export class PageStream extends Readable {
  private done: boolean;
  private scheduled = false;

  constructor(
    doc: PDFKit.PDFDocument,
    private readonly drawPage: () => boolean,
  ) {
    /* Node 22 raised the default buffer to 64 KiB; a few pages ahead is enough on every supported version. */
    super({ highWaterMark: 16 * 1024 });
    doc.on('data', (chunk: Buffer) => {
      if (!this.destroyed) this.push(chunk);
    });
    doc.on('end', () => {
      if (!this.destroyed) this.push(null);
    });
    doc.on('error', (error: Error) => this.destroy(error));
    this.done = drawPage();
  }

  override _read(): void {
    if (this.done || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.destroyed) return;
      try {
        this.done = this.drawPage();
      } catch (error) {
        this.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}
