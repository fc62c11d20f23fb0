import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { badgeVideo } from './badges.ts';
import { pdfText } from './pdf-text.ts';

/**
 * A pad's printed 4×6 label filmed by Chromium's fake camera: the label PDF of the pad, its first page rendered as poppler
 * prints it and cut to the QR code with a white margin, made into the video at `target`. Returns the label's code.
 */
export async function filmPadLabel(request: APIRequestContext, token: string, padId: number, target: string): Promise<string> {
  const label = await request.get(`/api/pad-labels?ids=${padId}&size=4x6`, { headers: { authorization: `Bearer ${token}` } });
  if (!label.ok()) throw new Error(`pad-labels answered ${label.status()}`);
  const pdf = await label.body();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pad-label-'));
  fs.writeFileSync(path.join(dir, 'label.pdf'), pdf);
  const crop = ['-x', '37', '-y', '37', '-W', '326', '-H', '326'];
  execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', ...crop, '-singlefile', 'label.pdf', 'qr'], { cwd: dir });
  badgeVideo(path.join(dir, 'qr.png'), target);
  return /PT1P\d+-[A-Z0-9]{12}/.exec(pdfText(pdf))?.[0] ?? '';
}
