import { describe, expect, it } from 'vitest';
import { pdfText } from './text.ts';

describe('pdfText', () => {
  it('when text fits the standard PDF fonts, then it is kept as written, markup and backslashes included', () => {
    expect(pdfText('<script>alert(1)</script> ) \\ /JS')).toBe('<script>alert(1)</script> ) \\ /JS');
    expect(pdfText('Peñafrancia – “Sta. Niño” €5')).toBe('Peñafrancia – “Sta. Niño” €5');
  });

  it('when text holds characters the fonts lack or control characters, then they become "?" or go', () => {
    expect(pdfText('Ferry 中 → 😀')).toBe('Ferry ? ? ?');
    expect(pdfText('a\u0000b\u0007c\u0085d')).toBe('abcd');
    expect(pdfText('line one\r\nline two\tend')).toBe('line one\nline two    end');
    expect(pdfText(null)).toBe('');
  });
});
