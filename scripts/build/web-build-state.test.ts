import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAMP_FILE, webBuildIsCurrent, webSourcesHash, writeWebBuildStamp } from './web-build-state.ts';

let root: string;
let outDir: string;
const inputs = ['src/web', 'index.html'];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-web-build-'));
  outDir = path.join(root, 'dist');
  fs.mkdirSync(path.join(root, 'src/web/app'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/web/app/main.tsx'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(root, 'index.html'), '<div id="root"></div>\n');
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function built(hash: string) {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'index.html'), '<html></html>');
  writeWebBuildStamp(outDir, hash);
}

describe('start-up UI build check', () => {
  it('when nothing was built yet, then the build is not current', () => {
    expect(webBuildIsCurrent(outDir, webSourcesHash(root, inputs))).toBe(false);
  });

  it('when the build was stamped with the same sources, then it is current and no rebuild is needed', () => {
    built(webSourcesHash(root, inputs));

    expect(webBuildIsCurrent(outDir, webSourcesHash(root, inputs))).toBe(true);
  });

  it('when a source file is edited, added or removed after the build, then the build is stale', () => {
    built(webSourcesHash(root, inputs));
    fs.writeFileSync(path.join(root, 'src/web/app/main.tsx'), 'export const a = 2;\n');
    expect(webBuildIsCurrent(outDir, webSourcesHash(root, inputs))).toBe(false);

    built(webSourcesHash(root, inputs));
    fs.writeFileSync(path.join(root, 'src/web/app/extra.ts'), 'export {};\n');
    expect(webBuildIsCurrent(outDir, webSourcesHash(root, inputs))).toBe(false);

    built(webSourcesHash(root, inputs));
    fs.rmSync(path.join(root, 'src/web/app/extra.ts'));
    expect(webBuildIsCurrent(outDir, webSourcesHash(root, inputs))).toBe(false);
  });

  it('when a file outside the inputs changes, then the build stays current', () => {
    built(webSourcesHash(root, inputs));
    fs.mkdirSync(path.join(root, 'src/server'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/server/main.ts'), 'export {};\n');

    expect(webBuildIsCurrent(outDir, webSourcesHash(root, inputs))).toBe(true);
  });

  it('when the built index.html or the stamp is missing, then the build is stale', () => {
    const hash = webSourcesHash(root, inputs);
    built(hash);
    fs.rmSync(path.join(outDir, STAMP_FILE));
    expect(webBuildIsCurrent(outDir, hash)).toBe(false);

    built(hash);
    fs.rmSync(path.join(outDir, 'index.html'));
    expect(webBuildIsCurrent(outDir, hash)).toBe(false);
  });
});
