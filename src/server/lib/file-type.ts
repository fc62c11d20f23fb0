/** The uploaded papers the app keeps: PDF, PNG or JPEG, told by their content. */
export type PaperType = 'application/pdf' | 'image/png' | 'image/jpeg';

/** The file's type by its first bytes: PDF, PNG or JPEG, whatever its name or declared type say. */
export function sniffType(content: Buffer): PaperType | null {
  if (content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (content.length > 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg';
  return null;
}
