/** Frames lines in a plain text box, for the few messages a person must read in a terminal full of JSON logs. */
export function boxed(lines: string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return [rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule].join('\n');
}

/** The first-start message: where the app runs and, on a new database, the first admin's one-time password. */
export function startBanner(input: { url: string; database: string; admin: { email: string; password: string } | null }): string {
  const lines = [`PadTrack is running at ${input.url}`, `Database: ${input.database}`];
  if (input.admin) {
    lines.push(
      '',
      'First admin account (shown once; the first sign-in asks for a new password):',
      `  E-mail:   ${input.admin.email}`,
      `  Password: ${input.admin.password}`,
    );
  }
  return boxed(lines);
}
