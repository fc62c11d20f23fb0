import { loadConfig } from '../src/server/config.ts';
import { runBackup } from '../src/server/backup-commands.ts';

const [file] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!file) {
  console.error('Usage: npm run backup -- FILE');
  process.exit(2);
}
try {
  process.exitCode = await runBackup(loadConfig(), file, (line) => console.log(line));
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
