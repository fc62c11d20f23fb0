import { and, eq } from 'drizzle-orm';
import type { DocumentKind, IdentitySnapshot, OperatorIdentityValues, Signatory } from '../../../shared/schemas/operator-identity.ts';
import type { Conn } from '../../db/client.ts';
import { documentIdentities, operatorIdentity } from '../../db/schema/settings.ts';

export type IdentityRow = typeof operatorIdentity.$inferSelect;

const ONE = 1;

export async function find(conn: Conn): Promise<IdentityRow | null> {
  const [row] = await conn.select().from(operatorIdentity).where(eq(operatorIdentity.id, ONE));
  return row ?? null;
}

/** Inserts the one row or replaces its fields; the logo stays as it was. */
export async function save(
  conn: Conn,
  values: Omit<OperatorIdentityValues, 'signatories'> & { signatories: Record<string, Signatory> },
  userId: number,
): Promise<void> {
  const row = { ...values, updated_by: userId, updated_at: new Date() };
  await conn
    .insert(operatorIdentity)
    .values({ id: ONE, ...row })
    .onConflictDoUpdate({ target: operatorIdentity.id, set: row });
}

/** Sets or clears the logo; false when no identity row exists yet. */
export async function setLogo(conn: Conn, logo: Buffer | null, userId: number): Promise<boolean> {
  const now = new Date();
  const updated = await conn
    .update(operatorIdentity)
    .set({ logo, logo_updated_at: logo ? now : null, updated_by: userId, updated_at: now })
    .where(eq(operatorIdentity.id, ONE))
    .returning({ id: operatorIdentity.id });
  return updated.length > 0;
}

/** Keeps `snapshot` as the document's identity unless one is kept already; answers the one kept. */
export async function keepSnapshot(
  conn: Conn,
  kind: DocumentKind,
  documentId: number,
  snapshot: IdentitySnapshot,
): Promise<IdentitySnapshot> {
  await conn.insert(documentIdentities).values({ kind, document_id: documentId, snapshot }).onConflictDoNothing();
  const [row] = await conn
    .select({ snapshot: documentIdentities.snapshot })
    .from(documentIdentities)
    .where(and(eq(documentIdentities.kind, kind), eq(documentIdentities.document_id, documentId)));
  return row.snapshot;
}
