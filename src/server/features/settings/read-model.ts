import { NO_IDENTITY, type DocumentKind, type IdentitySnapshot, type Signatory } from '../../../shared/schemas/operator-identity.ts';
import type { Conn } from '../../db/client.ts';
import * as repo from './repo.ts';

/**
 * The operator's identity as a document prints it now. A document that is kept (a certified RAAF, a saved report, a
 * confirmed notice) takes this once, when it is made, and stores what it printed; later changes never reach it.
 */
export async function operatorIdentity(conn: Conn): Promise<IdentitySnapshot> {
  const row = await repo.find(conn);
  if (!row) return NO_IDENTITY;
  return {
    registeredName: row.registered_name,
    tradeName: row.trade_name,
    tin: `${row.tin}-${row.branch_code}`,
    address: row.address,
    logo: row.logo ? row.logo.toString('base64') : null,
    signatories: row.signatories,
  };
}

/** The person who signs `kind` for the operator, or null when the administrator named none. */
export function signatoryFor(identity: IdentitySnapshot, kind: DocumentKind): Signatory | null {
  return identity.signatories[kind] ?? null;
}
