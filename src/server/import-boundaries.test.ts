import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The messages lint gives a file of this text at this path (the file need not exist). */
async function lint(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('import boundaries', () => {
  it('when a service or a lifecycle imports Drizzle, then lint fails', async () => {
    for (const file of [
      'src/server/features/pads/service.ts',
      'src/server/features/invoices/lifecycle.ts',
      'src/server/features/ledger/lifecycle.ts',
    ]) {
      const messages = await lint(file, "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1`;\n");
      expect(messages.join('\n'), file).toContain('Only repo files');
    }
  });

  it('when a repo imports Drizzle and its own tables, then lint passes', async () => {
    const messages = await lint(
      'src/server/features/ledger/repo.ts',
      "import { sql } from 'drizzle-orm';\nimport { padEvents } from '../../db/schema/ledger.ts';\nexport const q = sql`select ${padEvents.id}`;\n",
    );
    expect(messages).toEqual([]);
  });

  it('when a private *-repo.ts of a feature imports Drizzle and its own tables, then lint passes', async () => {
    const messages = await lint(
      'src/server/features/invoices/list-repo.ts',
      "import { sql } from 'drizzle-orm';\nimport { invoices } from '../../db/schema/invoices.ts';\nexport const q = sql`select ${invoices.id}`;\n",
    );
    expect(messages).toEqual([]);
  });

  it("when a repo imports another feature's table, then lint fails", async () => {
    const messages = await lint(
      'src/server/features/ledger/repo.ts',
      "import { users } from '../../db/schema/users.ts';\nexport const t = users;\n",
    );
    expect(messages.join('\n')).toContain('imports only its own tables');
  });

  it('when a feature imports another outside the allowed edges, then lint fails', async () => {
    const messages = await lint(
      'src/server/features/routes/service.ts',
      "import { padHistory } from '../ledger/pad-history.ts';\nexport const f = padHistory;\n",
    );
    expect(messages.join('\n')).toContain('ALLOWED_SERVER_IMPORTS');
  });
});
