import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { branchCount, lostOnTheWay } from './loss-and-count.ts';
import { operatorIdentity } from './operator.ts';
import { paperBesideEInvoicing } from './paper-use.ts';
import { demoLoaded, holdsOtherData, markDemoLoaded } from './repo.ts';
import {
  completedIssues,
  endStep,
  lossAndUse,
  onTheRoad,
  organisation,
  pads,
  raafCertificate,
  report,
  requests,
  returns,
  turnovers,
} from './scenes.ts';

/**
 * Loads a believable operator's data through the HTTP API (the same services, rules and transactions staff use), so
 * the demo shows only states the app itself can reach. The scenes run in the order the ledger records them.
 */
export async function loadDemo(app: FastifyInstance, ctx: AppContext, options: { force?: boolean } = {}): Promise<'loaded' | 'already'> {
  if (await demoLoaded(ctx.db)) return 'already';
  if ((await holdsOtherData(ctx.db)) && !options.force) {
    throw new Error('This database already holds data that is not demo data. Use --force to add the demo data anyway.');
  }
  const world = await organisation(app, ctx);
  await operatorIdentity(app);
  let held;
  try {
    await pads(world);
    held = await completedIssues(world);
    await returns(world, held);
    await turnovers(world, held);
    await lossAndUse(world, held);
  } finally {
    await endStep(world);
  }
  await lostOnTheWay(app, world, await onTheRoad(world, held));
  await requests(world);
  await report(world);
  await raafCertificate(world);
  await branchCount(app, world, held.supervisorPad);
  await paperBesideEInvoicing(app, world);
  await markDemoLoaded(ctx.db);
  return 'loaded';
}
