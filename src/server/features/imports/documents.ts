import { IMPORT_COLUMNS, IMPORT_SAMPLES, type ImportKind } from '../../../shared/schemas/imports.ts';
import type { AppContext } from '../../context.ts';
import { overlappingPads, takenPadNumbers } from '../pads/read-model.ts';
import { templateCsv } from './parse.ts';
import { branchKeys, routeKeys } from './repo.ts';

/** Probes before the sample gives up on finding free numbers (each probe jumps past the pad in the way). */
const SAMPLE_PROBES = 50;

/**
 * Issue 36: the pads sample row names a route of this instance, numbers and a pad number still free on it, and the head
 * office as holder, so the sample itself passes the dry run instead of clashing with a pad already stored.
 */
async function padSample(ctx: AppContext): Promise<readonly string[]> {
  const sample = [...IMPORT_SAMPLES.pads];
  const [route] = (await routeKeys(ctx.db)).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  if (!route) return sample;
  const size = Number(sample[2]) - Number(sample[1]);
  const row = { line: 1, routeId: route.id, number: Number(sample[3]), from: Number(sample[1]), to: Number(sample[2]) };
  for (let probe = 0; probe < SAMPLE_PROBES; probe += 1) {
    const [clash] = await overlappingPads(ctx.db, [row]);
    if (clash) {
      row.from = clash.series_to + 1;
      row.to = row.from + size;
      continue;
    }
    if ((await takenPadNumbers(ctx.db, [row])).length === 0) break;
    row.number += 1;
  }
  const headOffice = (await branchKeys(ctx.db)).find((branch) => branch.id === ctx.config.headOfficeBranchId);
  const lastUsed = row.from + Math.floor(size * 0.75);
  return [
    route.name,
    String(row.from),
    String(row.to),
    String(row.number),
    headOffice?.name ?? sample[4],
    `${row.from}-${lastUsed}`,
    String(lastUsed + 1),
    sample[7],
  ];
}

/** The CSV template of a kind: its header and a sample row, so a file starts from the columns the check expects. */
export const template = async (ctx: AppContext, kind: ImportKind) =>
  templateCsv(IMPORT_COLUMNS[kind], kind === 'pads' ? await padSample(ctx) : IMPORT_SAMPLES[kind]);
