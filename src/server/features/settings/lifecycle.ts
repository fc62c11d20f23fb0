import type { DocumentKind, IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import type { Conn } from '../../db/client.ts';
import { operatorIdentity } from './read-model.ts';
import * as repo from './repo.ts';

/**
 * The identity a final document prints for good: the one it was first printed with, kept then. For documents drawn
 * again from stored data on every download (a closed count's certificate), so a later change in Settings never alters
 * what was already handed out.
 */
export async function frozenIdentity(conn: Conn, kind: DocumentKind, documentId: number): Promise<IdentitySnapshot> {
  return repo.keepSnapshot(conn, kind, documentId, await operatorIdentity(conn));
}
