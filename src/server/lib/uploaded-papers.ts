import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { invalid, unauthenticated } from './errors.ts';

/** A file of a multipart body, under the form field that carried it. */
export interface UploadedPart {
  field: string;
  fileName: string;
  content: Buffer;
}

const binary = { schema: z.string().meta({ format: 'binary' }) };

/** A kept paper (an incident's attachment, an outage's evidence) travels as its bytes, under the type its content was checked to be. */
export const paperResponse = {
  description: 'A PDF, PNG or JPEG file',
  content: { 'application/pdf': binary, 'image/png': binary, 'image/jpeg': binary },
};

/** A kept paper opens for a signed-in user or with a signed link; anyone else gets 401 before the address is read. */
export const signedOrSignedIn = async (request: FastifyRequest) => {
  if (!request.user && !new URLSearchParams(request.url.split('?')[1] ?? '').has('signature')) throw unauthenticated();
};

/** The fastify multipart refusals carry a `code`; reading an absent one gives undefined. */
const codeOf = (error: unknown) => (error as { code?: string }).code;

/**
 * The text fields and files of a multipart body. The plugin limits each file's size and their count; its refusals become
 * 422s with the caller's messages.
 */
export async function readMultipart(
  request: FastifyRequest,
  messages: { fileTooLarge: (fileName: string) => string; tooManyFiles: string },
): Promise<{ fields: Record<string, unknown>; files: UploadedPart[] }> {
  const fields: Record<string, unknown> = {};
  const files: UploadedPart[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        fields[part.fieldname] = part.value;
        continue;
      }
      try {
        files.push({ field: part.fieldname, fileName: part.filename, content: await part.toBuffer() });
      } catch (error) {
        if (codeOf(error) === 'FST_REQ_FILE_TOO_LARGE') throw invalid(part.fieldname, messages.fileTooLarge(part.filename));
        throw error;
      }
    }
  } catch (error) {
    if (codeOf(error) === 'FST_FILES_LIMIT') throw invalid('files', messages.tooManyFiles);
    throw error;
  }
  return { fields, files };
}

/** A kept paper opens inline under its checked type; never sniffed by the browser, never framed by other sites. */
export function sendPaper(reply: FastifyReply, file: { content_type: string; file_name: string; content: Buffer }) {
  return reply
    .header('content-type', file.content_type)
    .header('content-disposition', `inline; filename="${file.file_name.replace(/[^\w. -]/g, '_')}"`)
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; frame-ancestors 'self'")
    .header('x-content-type-options', 'nosniff')
    .send(file.content);
}
