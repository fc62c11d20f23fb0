import type { PadView } from './read-model.ts';

/** What the ledger verifier compares of a pad with the fold of its events. */
export type PadCheckView = Pick<
  PadView,
  | 'id'
  | 'route_id'
  | 'number'
  | 'series_from'
  | 'series_to'
  | 'series_status'
  | 'pad_status_id'
  | 'holder_user_id'
  | 'holder_branch_id'
  | 'locked_by_invoice_id'
>;

const CHECK_FIELDS =
  'p.id, p.route_id, p.number, p.series_from, p.series_to, p.pad_status_id, c.holder_user_id, c.holder_branch_id, c.locked_by_invoice_id, p.series_status';
const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;

/** An integer field of COPY text, or null for `\N`. */
function copyInt(bytes: Buffer, start: number, end: number): number | null {
  if (bytes[start] === BACKSLASH) return null;
  const negative = bytes[start] === 45;
  let value = 0;
  for (let at = negative ? start + 1 : start; at < end; at += 1) value = value * 10 + bytes[at] - 48;
  return negative ? -value : value;
}

/** A text field of COPY text, its escapes undone. */
function copyText(bytes: Buffer, start: number, end: number): string {
  const text = bytes.toString('utf8', start, end);
  if (!text.includes('\\')) return text;
  const escapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
  return text.replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char);
}

/**
 * The pads with ids in (afterId, lastId] (every one after afterId when lastId is null) in id order, read as COPY text in
 * the verifier's snapshot: a slice's thousand pads cost one buffer, not a row object and a value per column from the driver.
 */
export async function padCheckViewsBetween(
  copy: (query: string) => Promise<Buffer>,
  afterId: number,
  lastId: number | null,
): Promise<PadCheckView[]> {
  if (!Number.isSafeInteger(afterId) || (lastId !== null && !Number.isSafeInteger(lastId))) throw new Error('pad ids must be integers');
  const bytes = await copy(
    `select ${CHECK_FIELDS} from pads p join pad_custody c on c.pad_id = p.id
      where p.id > ${afterId} and c.pad_id > ${afterId}${lastId === null ? '' : ` and p.id <= ${lastId} and c.pad_id <= ${lastId}`}
      order by p.id`,
  );
  const views: PadCheckView[] = [];
  const starts = new Int32Array(10);
  let at = 0;
  while (at < bytes.length) {
    let field = 0;
    starts[0] = at;
    while (field < 9) {
      if (bytes[at] === TAB) starts[(field += 1)] = at + 1;
      at += 1;
    }
    const end = bytes.indexOf(NEWLINE, at);
    const int = (index: number) => copyInt(bytes, starts[index], starts[index + 1] - 1);
    views.push({
      id: int(0) ?? 0,
      route_id: int(1) ?? 0,
      number: int(2) ?? 0,
      series_from: int(3) ?? 0,
      series_to: int(4) ?? 0,
      pad_status_id: int(5) ?? 0,
      holder_user_id: int(6),
      holder_branch_id: int(7),
      locked_by_invoice_id: int(8),
      series_status: copyText(bytes, starts[9], end),
    });
    at = end + 1;
  }
  return views;
}
