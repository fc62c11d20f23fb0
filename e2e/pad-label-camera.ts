import type { APIRequestContext } from '@playwright/test';
import { badgeVideo, labelQrPng } from './badges.ts';
import { pdfText } from './pdf-text.ts';

/**
 * A pad's printed 4×6 label filmed by Chromium's fake camera: the label PDF of the pad, its first page rendered as poppler
 * prints it and cut to the QR code with a white margin, made into the video at `target`. Returns the label's code.
 */
export async function filmPadLabel(request: APIRequestContext, token: string, padId: number, target: string): Promise<string> {
  const label = await request.get(`/api/pad-labels?ids=${padId}&size=4x6`, { headers: { authorization: `Bearer ${token}` } });
  if (!label.ok()) throw new Error(`pad-labels answered ${label.status()}`);
  const pdf = await label.body();
  badgeVideo(labelQrPng(pdf), target);
  return /PT1P\d+-[A-Z0-9]{12}/.exec(pdfText(pdf))?.[0] ?? '';
}
