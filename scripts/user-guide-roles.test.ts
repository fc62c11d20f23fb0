import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { can, type Actor } from '../src/shared/permissions.ts';

/** The user guide's RAAF column (docs/user-guide.md "Roles"), row by row: role ids and the cell. */
function guideRaafColumn(): Map<number, string> {
  const guide = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'user-guide.md'), 'utf8');
  const header = guide.search(/^\| id +\| role/m);
  const table = guide.slice(guide.indexOf('## Roles'), guide.indexOf('\n\n', header));
  const cells = new Map<number, string>();
  for (const line of table.split('\n').filter((row) => /^\| \d/.test(row))) {
    const [ids, , , raaf] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    for (const id of ids.split(',')) cells.set(Number(id), raaf);
  }
  return cells;
}

/** The same sentence, said by the rules in src/shared/permissions.ts. */
function sentenceOf(roleId: number): string {
  const actor: Actor = { id: 100, role_id: roleId, branch_id: 7 };
  const reads = can(actor, 'raaf.read', { type: 'branch', id: 8, branch_id: 8 })
    ? "reads every holder's"
    : can(actor, 'raaf.read', { type: 'user', id: 101, branch_id: 7 })
      ? "reads their branch's and its users'"
      : can(actor, 'raaf.read', { type: 'user', id: 100, branch_id: 7 })
        ? 'reads their own'
        : null;
  const own = can(actor, 'raaf.certify', { type: 'user', id: 100, branch_id: 7 });
  const anyBranch = can(actor, 'raaf.certify', { type: 'branch', id: 8, branch_id: 8 });
  const ownBranch = can(actor, 'raaf.certify', { type: 'branch', id: 7, branch_id: 7 });
  const certifies = anyBranch
    ? "certifies any branch's stock and their own"
    : ownBranch
      ? "certifies their own and their branch's stock"
      : own
        ? 'certifies their own'
        : 'certifies nothing (the Auditor reads only)';
  if (!reads) return 'none';
  return [reads, certifies, ...(can(actor, 'raaf.review') ? ['reviews certificates'] : [])].join('; ');
}

describe('the user guide role table', () => {
  it('when the RAAF column is read for roles 1–11, then it says what can() in src/shared/permissions.ts decides', () => {
    const column = guideRaafColumn();
    expect([...column.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    for (const [roleId, cell] of column) expect(cell, `role ${roleId}`).toBe(sentenceOf(roleId));
  });
});
