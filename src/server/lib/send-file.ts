import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A generated file: PDFs open inline in the page's own frame, CSVs download; never cached, never framed by other sites.
 * A stream is sent as it comes (chunked, no length), so a long PDF leaves while its later pages are drawn.
 */
export function sendFile(reply: FastifyReply, body: Buffer | Readable, type: 'pdf' | 'csv', fileName: string) {
  return reply
    .header('content-type', type === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8')
    .header('content-disposition', `${type === 'pdf' ? 'inline' : 'attachment'}; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'")
    .send(body);
}
