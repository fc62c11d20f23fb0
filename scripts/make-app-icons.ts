/**
 * Draws the installable app's PNG icons from public/favicon.svg in Chromium (docs/design.md §2 PWA): 192 and 512 px,
 * and a maskable 512 px one with the safe-zone margin. Run again after changing the favicon; the PNGs are committed.
 */
import fs from 'node:fs';
import { chromium } from '@playwright/test';

const svg = fs.readFileSync('public/favicon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const [file, size, margin] of [
    ['public/icon-192.png', 192, 0],
    ['public/icon-512.png', 512, 0],
    ['public/icon-maskable-512.png', 512, 0.1],
  ] as const) {
    await page.setViewportSize({ width: size, height: size });
    const inner = size * (1 - 2 * margin);
    await page.setContent(
      `<body style="margin:0;background:#1864ab;display:grid;place-items:center;width:${size}px;height:${size}px">` +
        `<div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body>`,
    );
    await page.screenshot({ path: file, omitBackground: false });
  }
} finally {
  await browser.close();
}
