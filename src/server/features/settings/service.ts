import {
  DOCUMENT_KIND_KEYS,
  IDENTITY_MSG,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  type OperatorIdentityResponse,
  type OperatorIdentityValues,
  type Signatory,
} from '../../../shared/schemas/operator-identity.ts';
import type { Actor } from '../../../shared/permissions.ts';
import type { AppContext } from '../../context.ts';
import { conflict, invalid } from '../../lib/errors.ts';
import { newPdfDocument } from '../../lib/pdf/document.ts';
import * as repo from './repo.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const NO_IDENTITY_YET = "Save the operator's identity before its logo.";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function toResponse(row: repo.IdentityRow | null): OperatorIdentityResponse {
  return {
    registered_name: row?.registered_name ?? null,
    trade_name: row?.trade_name ?? null,
    tin: row?.tin ?? null,
    branch_code: row?.branch_code ?? null,
    address: row?.address ?? null,
    signatories: row?.signatories ?? {},
    logo: row?.logo ? `data:image/png;base64,${row.logo.toString('base64')}` : null,
    logo_updated_at: iso(row?.logo_updated_at ?? null),
    updated_at: iso(row?.updated_at ?? null),
  };
}

/** The identity as the Settings screen edits it; every field null until an administrator saves one. */
export async function get(ctx: AppContext): Promise<OperatorIdentityResponse> {
  return toResponse(await repo.find(ctx.db));
}

/**
 * Saves what every document made from now on prints. Documents already kept (certified RAAFs, saved reports, confirmed
 * notices) hold the PDF they printed, so nothing made before changes.
 */
export async function save(ctx: AppContext, actor: Actor, input: OperatorIdentityValues): Promise<OperatorIdentityResponse> {
  const signatories: Record<string, Signatory> = {};
  for (const kind of DOCUMENT_KIND_KEYS) {
    const s = input.signatories[kind];
    if (s?.name && s.position) signatories[kind] = { name: s.name, position: s.position };
  }
  return ctx.db.transaction(async (tx) => {
    await repo.save(tx, { ...input, signatories }, actor.id);
    return toResponse(await repo.find(tx));
  });
}

/** The PNG's width and height from its header chunk, or null when the bytes are no PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Draws the image into a throw-away PDF: pdfkit decodes a PNG only as it writes it, and a logo it cannot write must be refused now, not on every document. */
async function printable(bytes: Buffer): Promise<boolean> {
  const doc = newPdfDocument({ size: 'A6' });
  const done = new Promise<boolean>((resolve) => {
    doc.on('end', () => resolve(true));
    doc.on('error', () => resolve(false));
  });
  doc.on('data', () => undefined);
  try {
    doc.image(bytes, 10, 10, { fit: [36, 36] });
    doc.end();
  } catch {
    return false;
  }
  return done;
}

/** Checks the logo is a PNG of bounded size that the documents can print, then stores it with the identity. */
export async function setLogo(ctx: AppContext, actor: Actor, base64: string): Promise<OperatorIdentityResponse> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw invalid('png', IDENTITY_MSG.logoType);
  if (bytes.length > LOGO_MAX_BYTES) throw invalid('png', IDENTITY_MSG.logoTooLarge);
  const size = pngSize(bytes);
  if (!size) throw invalid('png', IDENTITY_MSG.logoType);
  if (size.width === 0 || size.height === 0 || size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE)
    throw invalid('png', IDENTITY_MSG.logoTooWide);
  if (!(await printable(bytes))) throw invalid('png', IDENTITY_MSG.logoUnreadable);
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.setLogo(tx, bytes, actor.id))) throw conflict(NO_IDENTITY_YET);
    return toResponse(await repo.find(tx));
  });
}

/** Removes the logo: documents made from now on print the names alone. */
export async function removeLogo(ctx: AppContext, actor: Actor): Promise<OperatorIdentityResponse> {
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.setLogo(tx, null, actor.id))) throw conflict(IDENTITY_MSG.logoMissing);
    return toResponse(await repo.find(tx));
  });
}
