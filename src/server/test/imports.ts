import type { TestApp } from './test-app.ts';

/** POST imports as the Import screen sends it: multipart with kind, dry_run and the file. */
export function postImport(
  t: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
  input: { kind: 'pads' | 'users'; dryRun: boolean; name: string; content: string | Buffer },
) {
  const boundary = '----padtrack' + Math.random().toString(16).slice(2);
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const payload = Buffer.concat([
    Buffer.from(field('kind', input.kind) + field('dry_run', String(input.dryRun))),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${input.name}"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.isBuffer(input.content) ? input.content : Buffer.from(input.content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}
