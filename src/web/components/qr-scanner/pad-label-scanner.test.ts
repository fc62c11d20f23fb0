import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LABEL_MSG } from '../../../shared/custody-rules.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { notify } from '../notify.ts';
import { announceLabel, readPadLabel, takeLabel } from './pad-label-scanner.tsx';

const LABEL = 'PT1P9-7K2M4Q8R1X3Z';
const pad = { id: 9, number: 17 } as Pad;

/** The server behind pad-by-label: the pad, or a refusal in its words. */
function server(answer: { status: number; body: unknown }) {
  const asked: string[] = [];
  vi.stubGlobal('document', { cookie: '' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return asked;
}

beforeEach(() => {
  vi.spyOn(notify, 'success');
  vi.spyOn(notify, 'error');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a pad picker’s scanner', () => {
  it('when a pad label is scanned, then its pad is looked up and the picker decides', async () => {
    const asked = server({ status: 200, body: { data: pad } });
    const choose = vi.fn(() => ({ ok: true, message: 'Selected pad 17' }));

    expect(await readPadLabel(` ${LABEL.toLowerCase()} `, choose)).toEqual({ ok: true, message: 'Selected pad 17' });
    expect(asked).toEqual([`/api/pad-by-label?code=${LABEL.toLowerCase()}`]);
    expect(choose).toHaveBeenCalledWith(pad);
  });

  it('when a count scans a label, then the pad goes to the count instead of a selection', async () => {
    server({ status: 200, body: { data: pad } });
    const choose = vi.fn(() => ({ ok: true, message: '' }));
    const onPad = vi.fn(async () => ({ ok: true, message: 'Counted pad 17' }));

    expect(await readPadLabel(LABEL, choose, onPad)).toEqual({ ok: true, message: 'Counted pad 17' });
    expect(onPad).toHaveBeenCalledWith(9, 17);
    expect(choose).not.toHaveBeenCalled();
  });

  it('when a badge, a receipt number or any other code is scanned, then it is refused without asking the server', async () => {
    const asked = server({ status: 200, body: { data: pad } });
    for (const code of ['4417', 'PT1P9-SHORT', 'https://example.test/pad/9']) {
      expect(await readPadLabel(code, () => ({ ok: true, message: '' }))).toEqual({ ok: false, message: LABEL_MSG.unknown });
    }
    expect(asked).toEqual([]);
  });

  it('when the server refuses the label (altered, or too many wrong codes), then its words are shown', async () => {
    server({ status: 429, body: { message: 'Too many wrong badge or label codes.' } });
    expect(await readPadLabel(LABEL, () => ({ ok: true, message: '' }))).toEqual({
      ok: false,
      message: 'Too many wrong badge or label codes.',
    });
  });

  it('when the server fails, then the label is called unknown rather than showing a server error', async () => {
    server({ status: 500, body: { message: 'Server Error' } });
    expect(await readPadLabel(LABEL, () => ({ ok: true, message: '' }))).toEqual({ ok: false, message: LABEL_MSG.unknown });
  });
});

describe('a handheld scanner typing into a picker’s search box', () => {
  it('when it types a pad label, then the label is taken instead of searched', () => {
    const onLabel = vi.fn();
    expect(takeLabel(onLabel)(LABEL)).toBe(true);
    expect(onLabel).toHaveBeenCalledWith(LABEL);
  });

  it('when a person types a search, then it stays a search', () => {
    const onLabel = vi.fn();
    expect(takeLabel(onLabel)('17')).toBe(false);
    expect(takeLabel(onLabel)('Batangas')).toBe(false);
    expect(onLabel).not.toHaveBeenCalled();
  });

  it('when a typed label is looked up, then what the picker made of it is said as a notice', async () => {
    server({ status: 200, body: { data: pad } });
    await announceLabel(LABEL, () => ({ ok: true, message: 'Selected pad 17' }));
    expect(notify.success).toHaveBeenCalledWith('Selected pad 17');

    await announceLabel(LABEL, () => ({ ok: false, message: LABEL_MSG.notYours(17) }));
    expect(notify.error).toHaveBeenCalledWith(LABEL_MSG.notYours(17));

    server({ status: 404, body: { message: LABEL_MSG.unknown } });
    await announceLabel(LABEL, () => ({ ok: true, message: '' }));
    expect(notify.error).toHaveBeenLastCalledWith(LABEL_MSG.unknown);
  });
});
