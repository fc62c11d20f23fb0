import type { SetupStatus } from '../../../shared/schemas/setup.ts';
import type { AppContext } from '../../context.ts';
import * as repo from './repo.ts';

/** Guides the first administrator of an empty installation: which of the setup steps are done. */
export async function status(ctx: AppContext): Promise<SetupStatus> {
  return repo.status(ctx.db, ctx.config.headOfficeBranchId);
}
