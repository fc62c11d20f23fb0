import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Conn } from '../db/client.ts';
import { activities, invoices } from '../db/schema/invoices.ts';
import { padCustody, pads } from '../db/schema/pads.ts';

/** One step of the demo story: when it really ran (`since`) and the day it tells of (`to`, the ledger's clock). */
export interface DemoStep {
  since: Date;
  to: Date;
  /** Calendar days from the day it ran to the day it tells of, in APP_TIMEZONE. */
  days: number;
}

/**
 * Moves what one demo step wrote, at or after `since`, to the step's day, keeping its order and spacing: the
 * invoices, their history and the pads then carry the dates of the ledger events the same step recorded (the ledger
 * itself is append only and was recorded on that day), and an Expected Return stays the same days after its issue.
 */
export async function moveStepToItsDay(conn: Conn, step: DemoStep): Promise<void> {
  const since = step.since.toISOString();
  const to = step.to.toISOString();
  const moved = (column: SQLWrapper) =>
    sql`case when ${column} >= ${since}::timestamptz then ${to}::timestamptz + (${column} - ${since}::timestamptz) else ${column} end`;
  await conn
    .update(invoices)
    .set({
      expected_return_date: sql`case when ${invoices.created_at} >= ${since}::timestamptz then ${invoices.expected_return_date} + ${step.days}::int else ${invoices.expected_return_date} end`,
      created_at: moved(invoices.created_at),
      updated_at: moved(invoices.updated_at),
      accepted_at: moved(invoices.accepted_at),
    })
    .where(sql`${invoices.updated_at} >= ${since}::timestamptz or ${invoices.accepted_at} >= ${since}::timestamptz`);
  await conn
    .update(activities)
    .set({ created_at: moved(activities.created_at) })
    .where(sql`${activities.created_at} >= ${since}::timestamptz`);
  await conn
    .update(pads)
    .set({ created_at: moved(pads.created_at), updated_at: moved(pads.updated_at) })
    .where(sql`${pads.updated_at} >= ${since}::timestamptz`);
  await conn
    .update(padCustody)
    .set({ updated_at: moved(padCustody.updated_at) })
    .where(sql`${padCustody.updated_at} >= ${since}::timestamptz`);
}
