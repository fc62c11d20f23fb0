import { createInflateRaw } from 'node:zlib';

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
