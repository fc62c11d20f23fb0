import { loadConfig } from '../src/server/config.ts';
import { runRestore } from '../src/server/backup-commands.ts';

const args = process.argv.slice(2);
const [file] = args.filter((arg) => !arg.startsWith('--'));
if (!file) {
  console.error('Usage: npm run restore -- FILE [--force]');
  process.exit(2);
}
try {
  process.exitCode = await runRestore(loadConfig(), file, args.includes('--force'), (line) => console.log(line));
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
