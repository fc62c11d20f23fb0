import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.ts';
import { registerErrorHandler } from './errors.ts';
import { Pdf, type PdfSteps } from './pdf/document.ts';
import { pageFooters } from './pdf/draw.ts';
import { sendFile } from './send-file.ts';

/** A document of `pages` pages of numbered lines, whose drawing throws when it reaches page `failAt`. */
function lines(pages: number, failAt = Infinity): Pdf {
  const pdf = new Pdf({ size: 'A4', margins: { top: 40, right: 48, bottom: 48, left: 48 }, footerGap: 18, info: { title: 'Lines' } });
  pageFooters(pdf, 'Lines', { size: 7.5 });
  pdf.addPage();
  function* body(): PdfSteps {
    for (let line = 1; pdf.pageCount < pages || pdf.doc.y + 12 <= pdf.bodyBottom; line += 1) {
      if (pdf.pageCount >= failAt) throw new Error('drawing failed');
      pdf.ensureSpace(12);
      pdf.font('regular', 9);
      pdf.doc.text(`Line ${line}`, pdf.left, pdf.doc.y, { lineBreak: false });
      pdf.doc.y += 12;
      yield;
    }
  }
  return pdf.drawnBy(body());
}

let app: FastifyInstance;

async function serve(pdf: () => Pdf): Promise<FastifyInstance> {
  app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/file.pdf', (_request, reply) => sendFile(reply, pdf().stream(), 'pdf', 'file.pdf'));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

/** GETs the file over a real socket, noting what had been drawn when the first bytes came in. */
function download(drawn: () => number) {
  const { port } = app.server.address() as AddressInfo;
  return new Promise<{ res: http.IncomingMessage; body: Buffer; drawnAtFirstBytes: number; complete: boolean }>((resolve) => {
    http.get(`http://127.0.0.1:${port}/file.pdf`, (res) => {
      const chunks: Buffer[] = [];
      let drawnAtFirstBytes = -1;
      res.on('data', (chunk: Buffer) => {
        if (chunks.length === 0) drawnAtFirstBytes = drawn();
        chunks.push(chunk);
      });
      res.on('error', () => undefined);
      res.on('close', () => resolve({ res, body: Buffer.concat(chunks), drawnAtFirstBytes, complete: res.complete }));
    });
  });
}

afterEach(async () => {
  await app.close();
});

describe('sending a generated file', () => {
  it('when a long PDF is sent, then its first bytes arrive while later pages are still to be drawn, chunked and without a length', async () => {
    const served: { pdf?: Pdf } = {};
    await serve(() => (served.pdf = lines(120)));
    const { res, body, drawnAtFirstBytes, complete } = await download(() => served.pdf?.pageCount ?? 0);

    expect(res.statusCode).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="file.pdf"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");
    expect(drawnAtFirstBytes).toBeGreaterThan(0);
    expect(drawnAtFirstBytes).toBeLessThan(20);
    expect(complete).toBe(true);
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(body.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect(served.pdf?.pageCount).toBe(120);
  });

  it("when the drawing fails on the first page, then the answer is the app's JSON error, not a PDF", async () => {
    await serve(() => lines(5, 1));
    const { res, body } = await download(() => 0);

    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(body.toString())).toEqual({ message: MSG.unexpected });
  });

  it('when the drawing fails after the first bytes left, then the download is cut short rather than ended as a whole file', async () => {
    await serve(() => lines(40, 30));
    const { res, body, complete } = await download(() => 0);

    expect(res.statusCode).toBe(200);
    expect(complete).toBe(false);
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(body.toString('latin1')).not.toContain('%%EOF');
  });
});
