import { hash } from 'node:crypto';
import { EVENT_KINDS } from '../../../shared/schemas/ledger.ts';
import type { HashedEvent } from './fold.ts';

/**
 * The verifier's events read straight from COPY text (repo.ts VERIFIER_EVENT_FIELDS): each row's bytes are split in
 * place, the fields eventHash covers (fold.ts) are joined into its hash text byte for byte, and that is hashed and
 * compared with the stored hash without a string, a Date or an object per field. One event object is reused row after row.
 */
export interface RawEvent extends Pick<
  HashedEvent,
  'pad_id' | 'seq' | 'kind' | 'route_id' | 'from_number' | 'to_number' | 'qty' | 'holder_user_id' | 'holder_branch_id'
> {
  id: number;
  /** The business date as yyyymmdd. */
  day: number;
  /** Whether the stored hash is the SHA-256 of the event's content and its stored prev_hash (fold.ts eventHash). */
  hashOk: boolean;
  /** Where its prev_hash and hash lie in `bytes`. */
  bytes: Buffer;
  prevStart: number;
  prevEnd: number;
  hashStart: number;
  hashEnd: number;
}

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;
const PIPE = 124;
const DASH = 45;
const ZERO = 48;

/** Fields 0–16 are the hash text in order (pad_id … prev_hash); the outcome columns follow, then the stored hash and the id. */
const HASHED_FIELDS = 17;
const OUTCOME_FIELDS: ReadonlyArray<readonly [number, Buffer]> = [
  [17, Buffer.from('approver:')],
  [18, Buffer.from('incident:')],
  [19, Buffer.from('copies:')],
  [20, Buffer.from('device:')],
  [21, Buffer.from('import:')],
];
const FIELDS = 24;
const F = {
  padId: 0,
  seq: 1,
  kind: 2,
  routeId: 3,
  from: 4,
  to: 5,
  qty: 6,
  holderUser: 7,
  holderBranch: 8,
  businessDate: 15,
  prevHash: 16,
  hash: 22,
  id: 23,
} as const;

/** Each known kind by its length and first byte (unique among them), checked byte for byte before it is taken. */
const KIND_BY_SHAPE = new Map(EVENT_KINDS.map((kind) => [(kind.length << 8) | kind.charCodeAt(0), { kind, bytes: Buffer.from(kind) }]));

/** The digest as lowercase hex equals the bytes in [start, end). */
function hexEquals(digest: string, bytes: Buffer, start: number, end: number): boolean {
  if (end - start !== digest.length) return false;
  for (let i = 0; i < digest.length; i += 1) if (bytes[start + i] !== digest.charCodeAt(i)) return false;
  return true;
}

export function bytesEqual(a: Buffer, aStart: number, aEnd: number, b: Buffer, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i += 1) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** Reads the events of a COPY text one row at a time; `next()` answers the same object, refilled, until the rows run out. */
export class EventCursor {
  private position = 0;
  private readonly starts = new Int32Array(FIELDS + 1);
  private readonly ends = new Int32Array(FIELDS + 1);
  private text = Buffer.allocUnsafe(1024);
  readonly event: RawEvent;

  constructor(private readonly bytes: Buffer) {
    this.event = {
      id: 0,
      pad_id: 0,
      seq: 0,
      kind: '',
      route_id: 0,
      from_number: 0,
      to_number: 0,
      qty: 0,
      holder_user_id: null,
      holder_branch_id: null,
      day: 0,
      hashOk: false,
      bytes,
      prevStart: 0,
      prevEnd: 0,
      hashStart: 0,
      hashEnd: 0,
    };
  }

  private isNull(field: number): boolean {
    const start = this.starts[field];
    return this.ends[field] - start === 2 && this.bytes[start] === BACKSLASH && this.bytes[start + 1] === 78;
  }

  private number(field: number): number {
    const bytes = this.bytes;
    let at = this.starts[field];
    const end = this.ends[field];
    const negative = bytes[at] === DASH;
    if (negative) at += 1;
    let value = 0;
    for (; at < end; at += 1) value = value * 10 + bytes[at] - ZERO;
    return negative ? -value : value;
  }

  private nullable(field: number): number | null {
    return this.isNull(field) ? null : this.number(field);
  }

  private kindOf(): string {
    const start = this.starts[F.kind];
    const end = this.ends[F.kind];
    const known = KIND_BY_SHAPE.get(((end - start) << 8) | this.bytes[start]);
    if (known && bytesEqual(known.bytes, 0, known.bytes.length, this.bytes, start, end)) return known.kind;
    return this.bytes.toString('utf8', start, end);
  }

  /** yyyy-mm-dd as yyyymmdd. */
  private dayOf(): number {
    const bytes = this.bytes;
    let at = this.starts[F.businessDate];
    const end = this.ends[F.businessDate];
    let value = 0;
    for (; at < end; at += 1) if (bytes[at] !== DASH) value = value * 10 + bytes[at] - ZERO;
    return value;
  }

  /** The next row, its fields split and its hash text built in one pass; null after the last. */
  next(): RawEvent | null {
    const bytes = this.bytes;
    let at = this.position;
    if (at >= bytes.length) return null;
    const rowLength = bytes.indexOf(NEWLINE, at) - at;
    if (this.text.length < rowLength + 128) this.text = Buffer.allocUnsafe(2 * rowLength + 128);
    const text = this.text;
    const starts = this.starts;
    const ends = this.ends;
    let out = 0;
    let field = 0;
    starts[0] = at;
    for (;;) {
      const byte = bytes[at];
      if (byte === TAB || byte === NEWLINE) {
        ends[field] = at;
        if (field < HASHED_FIELDS) {
          if (this.isNull(field)) out -= 2;
          if (field < HASHED_FIELDS - 1) text[out++] = PIPE;
        }
        field += 1;
        starts[field] = at + 1;
        at += 1;
        if (byte === NEWLINE) break;
      } else {
        if (field < HASHED_FIELDS) text[out++] = byte;
        at += 1;
      }
    }
    this.position = at;
    if (field !== FIELDS) throw new Error(`an event row has ${field} fields, not ${FIELDS}`);
    for (const [index, label] of OUTCOME_FIELDS) {
      if (this.isNull(index)) continue;
      text[out++] = PIPE;
      out += label.copy(text, out);
      for (let i = starts[index]; i < ends[index]; i += 1) text[out++] = bytes[i];
    }
    const event = this.event;
    event.pad_id = this.number(F.padId);
    event.seq = this.number(F.seq);
    event.kind = this.kindOf();
    event.route_id = this.number(F.routeId);
    event.from_number = this.number(F.from);
    event.to_number = this.number(F.to);
    event.qty = this.number(F.qty);
    event.holder_user_id = this.nullable(F.holderUser);
    event.holder_branch_id = this.nullable(F.holderBranch);
    event.day = this.dayOf();
    event.id = this.number(F.id);
    event.prevStart = starts[F.prevHash];
    event.prevEnd = ends[F.prevHash];
    event.hashStart = starts[F.hash];
    event.hashEnd = ends[F.hash];
    event.hashOk = hexEquals(hash('sha256', text.subarray(0, out), 'hex'), bytes, event.hashStart, event.hashEnd);
    return event;
  }
}

/** The pad id and seq of the last row of a COPY text (the next slice starts after it), or null when it has none. */
export function lastRowKey(bytes: Buffer): { padId: number; seq: number } | null {
  if (bytes.length === 0) return null;
  const start = bytes.lastIndexOf(NEWLINE, bytes.length - 2) + 1;
  const tab = bytes.indexOf(TAB, start);
  const next = bytes.indexOf(TAB, tab + 1);
  return { padId: Number(bytes.toString('latin1', start, tab)), seq: Number(bytes.toString('latin1', tab + 1, next)) };
}

/** Rows in a COPY text. */
export function rowCount(bytes: Buffer): number {
  let rows = 0;
  for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) rows += 1;
  return rows;
}

/** `yyyy-mm-dd` as yyyymmdd, as RawEvent.day holds a business date. */
export const dayNumber = (date: string) => Number(date.replaceAll('-', ''));
