import type { Conn } from '../../db/client.ts';
import { insertDelivery } from './repo.ts';

/** One message to put in the outbox. */
export interface DeliveryInput {
  channel: 'email' | 'webhook';
  /** The person it is for, when it is for one: a deactivated user's deliveries are skipped at send time. */
  recipientUserId: number | null;
  /** The e-mail address (or, for a webhook, the URL). */
  to: string;
  /** What it is about ('digest', 'loss_reported' …), for the admin's view and the tests. */
  kind: string;
  /** Unique across the outbox: the same key twice is one message (and one Message-ID). */
  dedupeKey: string;
  subject: string;
  text: string;
  html?: string | null;
  /** A webhook's JSON body, or anything the sender should keep with the message. */
  payload?: unknown;
}

/**
 * Puts a message in the outbox inside the caller's transaction, so it is sent if and only if what decided it commits;
 * answers false when a message with this dedupe key was already enqueued (sent or not), which then stays as it was.
 */
export async function enqueueDelivery(tx: Conn, input: DeliveryInput): Promise<boolean> {
  return insertDelivery(tx, {
    channel: input.channel,
    recipient_user_id: input.recipientUserId,
    target: input.to,
    kind: input.kind,
    dedupe_key: input.dedupeKey,
    subject: input.subject,
    body_text: input.text,
    body_html: input.html ?? null,
    payload: input.payload ?? null,
  });
}
