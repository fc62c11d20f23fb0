/** The QR library loads with the first code rather than with the server's start. */
const qrcode = () => import('qrcode').then((m) => m.default);

/** A badge as the spec returns it: base64 of SVG markup. */
export async function qrSvgBase64(text: string): Promise<string> {
  const svg = await (await qrcode()).toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 240 });
  return Buffer.from(svg, 'utf8').toString('base64');
}

/** The same code as a PNG, for printing (PDF renderers draw raster images, not SVG). */
export async function qrPng(text: string): Promise<Buffer> {
  return (await qrcode()).toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 600 });
}
