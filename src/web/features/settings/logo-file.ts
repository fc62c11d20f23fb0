import { IDENTITY_MSG, LOGO_MAX_BYTES } from '../../../shared/schemas/operator-identity.ts';

/** An SVG is drawn at most this many pixels on its longer side. */
const SVG_SIDE = 512;

const readDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(IDENTITY_MSG.logoUnreadable));
    reader.readAsDataURL(blob);
  });

/**
 * An SVG drawn into a PNG: loaded as an image, which runs none of its scripts and fetches nothing, then painted on a
 * canvas. The server keeps and prints PNGs only, so no SVG markup is ever stored.
 */
async function svgToPng(file: File): Promise<string> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const natural = { width: image.naturalWidth || SVG_SIDE, height: image.naturalHeight || SVG_SIDE };
    const scale = SVG_SIDE / Math.max(natural.width, natural.height);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(natural.width * scale));
    canvas.height = Math.max(1, Math.round(natural.height * scale));
    canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/png');
  } catch {
    throw new Error(IDENTITY_MSG.logoUnreadable);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The chosen file as a PNG data URL, or an error saying why it cannot be the logo. */
export async function logoPng(file: File): Promise<string> {
  const svg = file.type === 'image/svg+xml' || file.name.toLowerCase().endsWith('.svg');
  if (!svg && file.type !== 'image/png') throw new Error(IDENTITY_MSG.logoType);
  const png = svg ? await svgToPng(file) : await readDataUrl(file);
  const bytes = Math.floor(((png.length - png.indexOf(',') - 1) * 3) / 4);
  if (bytes > LOGO_MAX_BYTES) throw new Error(IDENTITY_MSG.logoTooLarge);
  return png;
}
