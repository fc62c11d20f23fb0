import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inflateEntry, StreamClosed, zipEntries, ZipWriter } from './zip.ts';

/** Everything a stream is given, once it ends. */
function collected(stream: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => stream.on('end', () => resolve(Buffer.concat(chunks))));
}

describe('ZipWriter', () => {
  it('when entries are written piece by piece, then the archive reads back entry by entry with the same text', async () => {
    const out = new PassThrough();
    const bytes = collected(out);
    const zip = new ZipWriter(out, new Date('2026-11-29T09:00:00Z'));
    const sheet = await zip.open('xl/worksheets/sheet1.xml');
    const lines = Array.from({ length: 5_000 }, (_, i) => `<row r="${i + 1}"><c><v>${i * 7919}</v></c></row>`);
    for (const line of lines) await sheet.write(line);
    await sheet.close();
    await zip.add('[Content_Types].xml', '<Types/>');
    await zip.finish();
    const archive = await bytes;
    const entries = zipEntries(archive);
    expect(entries.map((entry) => entry.name)).toEqual(['xl/worksheets/sheet1.xml', '[Content_Types].xml']);
    const read = async (index: number) => {
      const chunks: Buffer[] = [];
      await inflateEntry(archive, entries[index], (chunk) => chunks.push(chunk));
      return Buffer.concat(chunks).toString('utf8');
    };
    expect(await read(0)).toBe(lines.join(''));
    expect(await read(1)).toBe('<Types/>');
  });

  it('when the reader goes away while the writer waits for room, then the writer fails instead of waiting for ever', async () => {
    const out = new Writable({ highWaterMark: 1024, write: () => undefined });
    const zip = new ZipWriter(out, new Date());
    const entry = await zip.open('big.xml');
    const writing = (async () => {
      for (let i = 0; ; i += 1) await entry.write(`<row r="${i}">${Math.random().toString(36).repeat(40)}</row>`);
    })();
    setTimeout(() => out.destroy(), 50);
    await expect(writing).rejects.toBeInstanceOf(StreamClosed);
    entry.abort();
  });
});
