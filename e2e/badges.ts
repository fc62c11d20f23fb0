import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser } from '@playwright/test';
import { apiAs, BASE_ARGS, type createUser } from './support.ts';

export type Person = Awaited<ReturnType<typeof createUser>>;

/** Where a camera spec's fake video lives; one per spec and port, since the browser reads it at launch. */
export const fakeCameraFile = (name: string) => path.join(os.tmpdir(), `padtrack-${name}-${process.env.E2E_PORT ?? 3100}.y4m`);

/** Test options for a spec whose Chromium films `file` with its fake camera, camera allowed; they apply to the whole file. */
export const fakeCamera = (file: string) => ({
  permissions: ['camera'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...BASE_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ],
  },
});

/** A person's real badge (get-user-qrcode) rendered to a PNG with a white margin by a Chromium page. */
export async function badgePng(request: APIRequestContext, browser: Browser, person: Person): Promise<string> {
  const api = await apiAs(request, person.email, person.password);
  const { qr_code } = await api.get<{ qr_code: string }>('get-user-qrcode');
  const page = await browser.newPage();
  await page.setContent(
    `<body style="margin:0;background:#fff"><img id="b" src="data:image/svg+xml;base64,${qr_code}" style="width:300px;height:300px;padding:30px;background:#fff"></body>`,
  );
  const png = path.join(os.tmpdir(), `padtrack-badge-${person.id}.png`);
  fs.writeFileSync(png, await page.locator('#b').screenshot());
  await page.close();
  return png;
}

/**
 * docs/design.md §7 fake-camera recipe: the code inside the 250 px scan box on a white 640×480 frame, shown in turn at
 * four sizes for half a second each, because the QR detector misses some codes at one exact scale (a random badge or
 * label code that it misses at two sizes is still read at the others).
 */
export function badgeVideo(png: string, target: string) {
  const sizes = [160, 180, 200, 230];
  const frame = (size: number, index: number) =>
    `[s${index}]scale=${size}:${size},pad=640:480:(ow-iw)/2:(oh-ih)/2:white,trim=duration=0.5,setpts=PTS-STARTPTS[v${index}]`;
  const inputs = sizes.map((_, index) => `[s${index}]`).join('');
  const clips = sizes.map((_, index) => `[v${index}]`).join('');
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-loop',
    '1',
    '-framerate',
    '10',
    '-i',
    png,
    '-filter_complex',
    `[0:v]split=${sizes.length}${inputs};${sizes.map(frame).join(';')};${clips}concat=n=${sizes.length}:v=1:a=0,format=yuv420p[out]`,
    '-map',
    '[out]',
    '-r',
    '10',
    target,
  ]);
}

/** The first page of a 4×6 label PDF rendered as poppler prints it, cut to the QR code with a white margin. */
export function labelQrPng(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pad-label-'));
  fs.writeFileSync(path.join(dir, 'label.pdf'), pdf);
  execFileSync(
    'pdftoppm',
    ['-png', '-r', '100', '-f', '1', '-l', '1', '-x', '37', '-y', '37', '-W', '326', '-H', '326', '-singlefile', 'label.pdf', 'qr'],
    {
      cwd: dir,
    },
  );
  return path.join(dir, 'qr.png');
}
