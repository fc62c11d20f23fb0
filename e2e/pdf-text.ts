import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The text of a PDF as poppler's pdftotext reads it (layout kept), so a browser test checks what the paper says. */
export function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-e2e-'));
  const file = path.join(dir, 'file.pdf');
  fs.writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
  fs.rmSync(dir, { recursive: true, force: true });
  return text;
}
