import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, createInflateRaw } from 'node:zlib';

/** One file of a zip archive as its central directory describes it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  dataOffset: number;
}

/** An archive that is not a plain zip, or whose parts do not agree with each other. */
export class ZipProblem extends Error {}

const END_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const DESCRIPTOR_SIGNATURE = 0x08074b50;
const END_SIZE = 22;
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;
const DESCRIPTOR_FLAG = 0x8;

function endRecordOffset(zip: Buffer): number {
  const earliest = Math.max(0, zip.length - END_SIZE - 0xffff);
  for (let at = zip.length - END_SIZE; at >= earliest; at -= 1) if (zip.readUInt32LE(at) === END_SIGNATURE) return at;
  throw new ZipProblem('it is not a zip archive');
}

/** Where an entry's data ends: after its data, and after the data descriptor that follows it when its flag says so. */
function entryEnd(zip: Buffer, dataEnd: number, flags: number): number {
  if ((flags & DESCRIPTOR_FLAG) === 0) return dataEnd;
  return dataEnd + 4 <= zip.length && zip.readUInt32LE(dataEnd) === DESCRIPTOR_SIGNATURE ? dataEnd + 16 : dataEnd + 12;
}

/**
 * The entries of a zip archive read from its central directory, without inflating anything. The local headers must agree
 * with it and the entries must follow each other with nothing between them, so a reader that walks the local headers
 * (as a streaming one does) meets exactly these entries and sizes. Zip64, encryption and methods other than stored and
 * deflated are refused.
 */
export function zipEntries(zip: Buffer): ZipEntry[] {
  if (zip.length < END_SIZE) throw new ZipProblem('it is not a zip archive');
  const end = endRecordOffset(zip);
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (zip.readUInt16LE(end + 4) !== 0 || count !== zip.readUInt16LE(end + 8)) throw new ZipProblem('it spans several disks');
  if (directoryOffset === ZIP64_MARK || directoryOffset + directorySize > end) throw new ZipProblem('its directory is out of place');
  const entries: Array<ZipEntry & { localOffset: number; end: number }> = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipProblem('its directory is damaged');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const uncompressedSize = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (compressedSize === ZIP64_MARK || uncompressedSize === ZIP64_MARK || localOffset === ZIP64_MARK)
      throw new ZipProblem('it is a Zip64 archive');
    if (flags & ENCRYPTED_FLAG) throw new ZipProblem('it is encrypted');
    if (method !== STORED && method !== DEFLATED) throw new ZipProblem(`${name} is compressed with an unknown method`);
    if (localOffset + 30 > directoryOffset || zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) throw new ZipProblem(`${name} is damaged`);
    const localFlags = zip.readUInt16LE(localOffset + 6);
    const dataOffset = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const sizesAgree =
      (localFlags & DESCRIPTOR_FLAG) !== 0 ||
      (zip.readUInt32LE(localOffset + 18) === compressedSize && zip.readUInt32LE(localOffset + 22) === uncompressedSize);
    if (localFlags !== flags || zip.readUInt16LE(localOffset + 8) !== method || !sizesAgree)
      throw new ZipProblem(`${name} is described twice in different ways`);
    entries.push({
      name,
      method,
      compressedSize,
      uncompressedSize,
      dataOffset,
      localOffset,
      end: entryEnd(zip, dataOffset + compressedSize, flags),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  const inOrder = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  let expected = 0;
  for (const entry of inOrder) {
    if (entry.localOffset !== expected) throw new ZipProblem('it holds data outside its directory');
    expected = entry.end;
  }
  if (expected !== directoryOffset) throw new ZipProblem('it holds data outside its directory');
  return entries.map(({ name, method, compressedSize, uncompressedSize, dataOffset }) => ({
    name,
    method,
    compressedSize,
    uncompressedSize,
    dataOffset,
  }));
}

/**
 * Inflates one entry, handing its bytes to `onChunk` as they come, and fails as soon as it yields more than it declared:
 * a declared size is the attacker's word, this is the check. Memory stays at one chunk whatever the entry inflates to.
 */
export async function inflateEntry(zip: Buffer, entry: ZipEntry, onChunk: (chunk: Buffer) => void = () => undefined): Promise<number> {
  const data = zip.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === STORED) {
    onChunk(data);
    return data.length;
  }
  const inflate = createInflateRaw();
  let total = 0;
  const done = (async () => {
    // A stream's iterator is typed `any`; an inflate stream yields Buffers.
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > entry.uncompressedSize) {
        inflate.destroy();
        throw new ZipProblem(`${entry.name} holds more than its declared ${entry.uncompressedSize} bytes`);
      }
      onChunk(chunk);
    }
  })();
  inflate.end(data);
  try {
    await done;
  } catch (error) {
    if (error instanceof ZipProblem) throw error;
    throw new ZipProblem(`${entry.name} is damaged`);
  }
  return total;
}

/** The reader went away (a closed download) while a writer waited for room. */
export class StreamClosed extends Error {
  constructor() {
    super('the stream closed before it took everything');
  }
}

/** Resolves once `out` has room again, and fails if it closes first, so a writer never waits for a reader that left. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new StreamClosed());
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}

/**
 * Writes a chunk and waits while the stream's buffer is full: the one way the exports write, so a slow download holds
 * back what produces the bytes (the database cursor) instead of piling them up in memory.
 */
export async function writeWithBackpressure(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.destroyed) throw new StreamClosed();
  if (!out.write(chunk)) await drained(out);
}

/** The most characters one write turns into bytes: a piece stays a small buffer, never a large one. */
const PIECE_CHARS = 16_384;

/**
 * Writes a long text in pieces of at most PIECE_CHARS (never splitting a surrogate pair), each waiting for the stream.
 * A batch of rows becomes one text at once, so its row objects die young; the text alone waits for the download.
 */
export async function writeText(write: (piece: string) => Promise<void>, text: string): Promise<void> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    await write(text.slice(at, end));
    at = end;
  }
}

const UTF8_FLAG = 0x800;
const ZIP_VERSION = 20;
const MAX_32 = 0xffffffff;

/** MS-DOS date and time fields, as zip headers keep a file's time. */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((Math.max(1980, at.getFullYear()) - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** An entry being written: its text goes in piece by piece and is deflated as it comes. */
export interface ZipEntryWriter {
  /** Deflates the text a few KB at a time, waiting for the stream. */
  write(text: string): Promise<void>;
  /** Ends the entry: the rest of its deflated data, then its sizes and checksum. */
  close(): Promise<void>;
  /** Drops the entry after a failure, freeing its deflater; the archive is unfinished. */
  abort(): void;
}

/**
 * A zip archive written to a stream as it is made (what an .xlsx is): each entry is deflated while its text is written,
 * its sizes and checksum following it in a data descriptor, so no entry is ever whole in memory, and every write waits
 * for the stream, so a slow reader holds the writer back. Archives past 4 GiB (Zip64) are refused.
 */
export class ZipWriter {
  private offset = 0;
  private readonly directory: Buffer[] = [];
  private readonly stamp: { time: number; date: number };

  constructor(
    private readonly out: Writable,
    modified: Date,
  ) {
    this.stamp = dosTime(modified);
  }

  private async push(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (this.offset > MAX_32) throw new ZipProblem('the archive would need Zip64');
    await writeWithBackpressure(this.out, chunk);
  }

  /** Starts an entry; entries are written one after the other, each closed before the next opens. */
  async open(name: string): Promise<ZipEntryWriter> {
    const nameBytes = Buffer.from(name, 'utf8');
    const localOffset = this.offset;
    const flags = DESCRIPTOR_FLAG | UTF8_FLAG;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_SIGNATURE, 0);
    local.writeUInt16LE(ZIP_VERSION, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(DEFLATED, 8);
    local.writeUInt16LE(this.stamp.time, 10);
    local.writeUInt16LE(this.stamp.date, 12);
    local.writeUInt16LE(nameBytes.length, 26);
    await this.push(Buffer.concat([local, nameBytes]));

    const deflate = createDeflateRaw();
    let checksum = 0;
    let size = 0;
    let compressedSize = 0;
    const copied = (async () => {
      // A stream's iterator is typed `any`; a deflate stream yields Buffers.
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        compressedSize += chunk.length;
        await this.push(chunk);
      }
    })();
    copied.catch(() => deflate.destroy());
    return {
      write: (text) =>
        writeText(async (piece) => {
          const data = Buffer.from(piece, 'utf8');
          checksum = crc32(data, checksum);
          size += data.length;
          if (size > MAX_32) throw new ZipProblem(`${name} would need Zip64`);
          await writeWithBackpressure(deflate, data);
        }, text),
      abort: () => deflate.destroy(),
      close: async () => {
        deflate.end();
        await copied;
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(DESCRIPTOR_SIGNATURE, 0);
        descriptor.writeUInt32LE(checksum >>> 0, 4);
        descriptor.writeUInt32LE(compressedSize, 8);
        descriptor.writeUInt32LE(size, 12);
        await this.push(descriptor);
        const central = Buffer.alloc(46);
        central.writeUInt32LE(CENTRAL_SIGNATURE, 0);
        central.writeUInt16LE(ZIP_VERSION, 4);
        central.writeUInt16LE(ZIP_VERSION, 6);
        central.writeUInt16LE(flags, 8);
        central.writeUInt16LE(DEFLATED, 10);
        central.writeUInt16LE(this.stamp.time, 12);
        central.writeUInt16LE(this.stamp.date, 14);
        central.writeUInt32LE(checksum >>> 0, 16);
        central.writeUInt32LE(compressedSize, 20);
        central.writeUInt32LE(size, 24);
        central.writeUInt16LE(nameBytes.length, 28);
        central.writeUInt32LE(localOffset, 42);
        this.directory.push(Buffer.concat([central, nameBytes]));
      },
    };
  }

  /** Adds a whole entry of text, for the small parts. */
  async add(name: string, text: string): Promise<void> {
    const entry = await this.open(name);
    await entry.write(text);
    await entry.close();
  }

  /** Writes the central directory and the end record, and ends the stream. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const record of this.directory) await this.push(record);
    const end = Buffer.alloc(END_SIZE);
    end.writeUInt32LE(END_SIGNATURE, 0);
    end.writeUInt16LE(this.directory.length, 8);
    end.writeUInt16LE(this.directory.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.push(end);
    this.out.end();
  }
}
