import path from 'node:path';
import { runnerImport, type Plugin } from 'vite';

/** The built page the server sends for GET /login (src/server/app.ts): index.html with the sign-in form already in it. */
export const SIGN_IN_PAGE = 'login.html';

/**
 * Writes login.html beside index.html: the sign-in screen rendered at build time (scripts/build/sign-in-markup.tsx)
 * inside the root element, so a phone shows a form it can type into as soon as the HTML and the styles arrive, seconds
 * before the script has run; main.tsx then draws the same screen in its place and keeps what was typed. Every other
 * address keeps the empty index.html, so a signed-in screen never shows a sign-in form first.
 */
export function prerenderSignIn(): Plugin {
  return {
    name: 'padtrack-prerender-sign-in',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') throw new Error('prerender-sign-in: the build has no index.html');
      const root = path.resolve(import.meta.dirname, '../..');
      const { module } = await runnerImport<typeof import('./sign-in-markup.tsx')>(path.join(root, 'scripts/build/sign-in-markup.tsx'), {
        root,
        configFile: false,
        logLevel: 'warn',
      });
      const html = String(index.source);
      const page = html
        .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
        .replace('<title>PadTrack</title>', '<title>Sign in · PadTrack</title>')
        .replace('<div id="root"></div>', `<div id="root">${module.signInMarkup()}</div>`);
      if (page === html || !page.includes('data-mantine-color-scheme') || !page.includes('Sign in · PadTrack')) {
        throw new Error('prerender-sign-in: index.html no longer has the html, title and root elements this plugin fills');
      }
      this.emitFile({ type: 'asset', fileName: SIGN_IN_PAGE, source: page });
    },
  };
}
