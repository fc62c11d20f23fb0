import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Debian packages the test suite drives for real: the browser, PDF text extraction, the fake camera's video, and the scale-out test's load balancer. */
const NEEDED: Array<{ pkg: string; file: string; why: string }> = [
  { pkg: 'chromium', file: '/usr/bin/chromium', why: 'browser tests' },
  { pkg: 'poppler-utils', file: '/usr/bin/pdftotext', why: 'reading report PDFs' },
  { pkg: 'ffmpeg', file: '/usr/bin/ffmpeg', why: 'the fake camera of the scanner tests' },
  { pkg: 'haproxy', file: '/usr/sbin/haproxy', why: 'the scale-out test (two instances behind a load balancer)' },
];

const missing = NEEDED.filter((n) => !fs.existsSync(n.file));
if (missing.length > 0) {
  const names = missing.map((m) => m.pkg);
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !fs.existsSync('/usr/bin/apt-get')) {
    console.error(
      `Missing Debian packages: ${names.join(', ')} (${missing.map((m) => m.why).join('; ')}). Install them with: sudo apt-get install ${names.join(' ')}`,
    );
    process.exit(1);
  }
  console.log(`Installing ${names.join(', ')} from Debian's packages...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], { stdio: 'inherit', env });
  const still = missing.filter((m) => !fs.existsSync(m.file));
  if (still.length > 0) {
    console.error(`Could not install: ${still.map((m) => m.pkg).join(', ')}`);
    process.exit(1);
  }
}
