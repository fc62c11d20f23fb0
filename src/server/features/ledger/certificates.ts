import { can, raafScope, type Actor } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  LEDGER_MSG,
  type CertificateListQuery,
  type CertifyRaafInput,
  type Raaf,
  type RaafCertificate,
} from '../../../shared/schemas/ledger.ts';
import { PAPER_USE_MSG } from '../../../shared/schemas/paper-uses.ts';
import type { AppContext } from '../../context.ts';
import { sqlState, type Conn } from '../../db/client.ts';
import type { RowSource } from '../../lib/export.ts';
import { conflict, forbidden, notFound, unauthenticated } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';
import { openExceptionsOf } from '../outages/read-model.ts';
import { Names } from '../users/read-model.ts';
import { activeActor } from '../users/read-model.ts';
import { monthBounds } from './month-balances.ts';
import { certificateRef, computeRaaf, holderFilter, raafPdf, resolveHolder } from './raaf.ts';
import * as reads from './read-model.ts';
import * as repo from './repo.ts';
import { certificateContentHash } from './certificate-check.ts';
import { assertCertifiableMonth } from './months.ts';

const UNIQUE_VIOLATION = '23505';
const keyOf = (ctx: AppContext) => urlKey(ctx.badgeSecret, 'raaf-pdf-url');

const pdfUrl = (ctx: AppContext, certificateId: number, userId: number) =>
  `/api/raaf-certificates/${certificateId}/pdf?${signedQueryFor(keyOf(ctx), `raaf:${certificateId}`, userId)}`;

async function certificateDto(
  ctx: AppContext,
  rows: repo.CertificateRow[],
  viewerId: number,
  conn: Conn = ctx.db,
): Promise<RaafCertificate[]> {
  const names = await Names.load(
    conn,
    rows.flatMap((row) => [row.certified_by, row.reviewed_by, row.holder_type === 'user' ? row.holder_id : null]),
    rows.map((row) => (row.holder_type === 'branch' ? row.holder_id : null)),
  );
  return rows.map((row) => {
    // -- report_json is written only by certify(), from the Raaf it certifies.
    const frozen = JSON.parse(row.report_json) as Raaf;
    const holderName =
      row.holder_type === 'user'
        ? (names.person(row.holder_id)?.full_name ?? frozen.holder.name)
        : (names.branch(row.holder_id)?.name ?? frozen.holder.name);
    return {
      // -- certificateRef answers null only for a missing row; `row` is one.
      ...(certificateRef(row) as NonNullable<ReturnType<typeof certificateRef>>),
      month: row.month,
      // -- raaf_certificates_holder_type_ck holds the text column to 'user' | 'branch'.
      holder: { type: row.holder_type as 'user' | 'branch', id: row.holder_id, name: holderName },
      certified_by: names.person(row.certified_by) ?? { id: row.certified_by, full_name: `user #${row.certified_by}` },
      reviewed_by: names.person(row.reviewed_by),
      totals: frozen.totals,
      pdf_url: pdfUrl(ctx, row.id, viewerId),
    };
  });
}

/**
 * The holder signs an ended month: the report is computed once more, rendered, and frozen with the last
 * event hash of every pad it covers, under the month's next number. An ended month never changes (events
 * are never backdated), so the report is computed before the short numbering transaction. The advisory lock numbers
 * certificates without gaps; the unique index refuses a second one for the same holder and month.
 */
export async function certify(ctx: AppContext, actor: Actor, input: CertifyRaafInput): Promise<RaafCertificate> {
  const holder = await resolveHolder(ctx, input);
  if (!can(actor, 'raaf.certify', holder)) throw forbidden(LEDGER_MSG.certifyOwn);
  await assertCertifiableMonth(ctx, input.month);
  const { end } = monthBounds(input.month);
  if (await reads.findCertificate(ctx.db, input.month, holder.type, holder.id)) throw conflict(LEDGER_MSG.alreadyCertified);
  const exceptions = await openExceptionsOf(ctx.db, holder, input.month);
  if (exceptions.count > 0) throw conflict(PAPER_USE_MSG.certifyBlocked(exceptions.count, exceptions.first ?? 0, input.month));
  const frozen: Raaf = { ...(await computeRaaf(ctx, holder, input.month)), certificate: null };
  const hashes = await repo.lastHashesOnRoutes(ctx.db, end, holderFilter(holder));
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const number = await repo.nextCertificateNumber(tx, input.month);
      if (await reads.findCertificate(tx, input.month, holder.type, holder.id)) throw conflict(LEDGER_MSG.alreadyCertified);
      const certifiedAt = new Date();
      const content = {
        number,
        month: input.month,
        holder_type: holder.type,
        holder_id: holder.id,
        report_json: JSON.stringify(frozen),
        pad_hashes: JSON.stringify(hashes.map((h) => [Number(h.pad_id), Number(h.seq), h.hash])),
        pdf: await (await raafPdf(ctx, frozen, { number, certifiedAt }, tx)).finish(),
        certified_by: actor.id,
        certified_at: certifiedAt,
      };
      const row = await repo.insertCertificate(tx, { ...content, content_hash: certificateContentHash(content) });
      return row.id;
    });
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw conflict(LEDGER_MSG.alreadyCertified);
    throw error;
  }
  const row = await reads.certificateById(ctx.db, id);
  return (await certificateDto(ctx, row ? [row] : [], actor.id))[0];
}

/** Accounting marks a certificate reviewed, once. */
export async function review(ctx: AppContext, actor: Actor, id: number): Promise<RaafCertificate> {
  const row = await reads.certificateById(ctx.db, id);
  if (!row) throw notFound(LEDGER_MSG.certificateMissing);
  if (!(await repo.markReviewed(ctx.db, id, actor.id))) throw conflict(LEDGER_MSG.alreadyReviewed);
  // -- the row was read above and the ledger's certificates are never deleted, so it is still there.
  const updated = (await reads.certificateById(ctx.db, id)) as repo.CertificateRow;
  return (await certificateDto(ctx, [updated], actor.id))[0];
}

/** Certificates the actor may read (whose holder's RAAF they may read), newest first. */
export async function listCertificates(ctx: AppContext, actor: Actor, query: CertificateListQuery): Promise<Paginated<RaafCertificate>> {
  const { rows, total } = await reads.listCertificates(ctx.db, { ...query, scope: raafScope(actor) });
  return paginated(await certificateDto(ctx, rows, actor.id), total, query.page, query.per_page);
}

/** docs/design.md §10 Export: every certificate of the list the actor may read, for these filters, in batches. */
export function certificateSource(ctx: AppContext, actor: Actor, query: CertificateListQuery): RowSource<RaafCertificate> {
  return (write) =>
    reads.streamCertificates(ctx.db, { ...query, scope: raafScope(actor) }, async (rows, tx) =>
      write(await certificateDto(ctx, rows, actor.id, tx)),
    );
}

/** The frozen PDF: to a bearer who may read that holder's RAAF, or through a signed short-lived address. */
export async function certificatePdf(
  ctx: AppContext,
  id: number,
  bearer: Actor | null,
  q: SignedQuery,
): Promise<{ number: string; pdf: Buffer }> {
  let viewer = bearer;
  if (!viewer) {
    const verified = verifySigned(keyOf(ctx), `raaf:${id}`, q);
    if (!verified.ok) {
      if (verified.reason === 'missing') throw unauthenticated();
      throw forbidden(verified.reason === 'expired' ? 'This link has expired. Open the certificate again.' : 'This link is not valid.');
    }
    viewer = (await activeActor(ctx.db, verified.userId)) ?? null;
    if (!viewer) throw forbidden();
  }
  const row = await reads.certificateById(ctx.db, id);
  if (!row) throw notFound(LEDGER_MSG.certificateMissing);
  const holder =
    row.holder_type === 'user'
      ? await resolveHolder(ctx, { user_id: row.holder_id })
      : await resolveHolder(ctx, { branch_id: row.holder_id });
  if (!can(viewer, 'raaf.read', holder)) throw forbidden();
  return { number: row.number, pdf: row.pdf };
}
