/** Characters of Windows-1252 above Latin-1's ASCII part that the built-in PDF fonts can draw. */
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text every font draws as it is: a RAAF's thousands of remarks are mostly this. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function drawable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x0a) return true;
  if (code >= 0x20 && code <= 0x7e) return true;
  if (code >= 0xa0 && code <= 0xff) return true;
  return CP1252_EXTRA.has(char);
}

/**
 * User text as the standard PDF fonts can show it: composed form, tabs as spaces, control characters
 * dropped, and anything the WinAnsi encoding lacks shown as "?" rather than as garbled glyphs.
 */
export function pdfText(value: string | null | undefined): string {
  if (!value) return '';
  if (PRINTABLE_ASCII.test(value)) return value;
  let out = '';
  for (const char of value.normalize('NFC').replace(/\r\n?/g, '\n').replace(/\t/g, '    ')) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 && code !== 0x0a) continue;
    if (code >= 0x7f && code < 0xa0) continue;
    out += drawable(char) ? char : '?';
  }
  return out;
}
