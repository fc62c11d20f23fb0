import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * The layering rule of src: features sit on top of the shared layers (src/shared, server/lib, server/db, web/lib,
 * web/components), never the other way round; the web never reaches into the server; no module imports itself back. The same rules run on the planted violations of
 * scripts/architecture/fixtures/layers, a small copy of the src layout that proves in scripts/architecture/layers.test.ts
 * that each rule fires; `npm run lint` skips that copy.
 */
const LAYER_FIXTURES = 'scripts/architecture/fixtures/layers';

const SHARED_LAYERS = ['server/lib', 'server/db', 'web/lib', 'web/components'];
const FEATURES = ['server/features', 'web/features'];

const MESSAGES = {
  shared: 'src/shared is used by both sides and imports neither server nor web.',
  sharedLayer:
    'A shared layer (server/lib, server/db, web/lib, web/components) never imports a feature; move the piece it needs into the layer or src/shared.',
  webServer: 'src/web never imports src/server; what both sides need lives in src/shared.',
};

/** The forbidden edges of one source tree, as import-x/no-restricted-paths zones with paths from the project root. */
function zones(src, { tests = false } = {}) {
  return [
    { target: `${src}/shared`, from: [`${src}/server`, `${src}/web`], message: MESSAGES.shared },
    ...(tests ? [] : SHARED_LAYERS).map((layer) => ({
      target: `${src}/${layer}`,
      from: FEATURES.map((features) => `${src}/${features}`),
      message: MESSAGES.sharedLayer,
    })),
    { target: `${src}/web`, from: `${src}/server`, message: MESSAGES.webServer },
  ];
}

/**
 * The layer and cycle rules for eslint.config.js. Tests of a shared layer may import features (csv.test.ts checks the
 * features' CSV writers against the one encoder): nothing imports a test, so it adds no edge to the layers. A cycle
 * of type-only imports is erased at build time and not reported.
 */
export function layers(root) {
  const sources = ['src', `${LAYER_FIXTURES}/src`];
  const files = sources.map((src) => `${src}/**/*.{ts,tsx}`);
  return [
    { ignores: [`${LAYER_FIXTURES}/`] },
    {
      files,
      plugins: { 'import-x': importX },
      settings: {
        'import-x/extensions': ['.ts', '.tsx', '.js'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      },
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: sources.flatMap((src) => zones(src)) }],
      },
    },
    {
      files: sources.map((src) => `${src}/**/*.test.{ts,tsx}`),
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: sources.flatMap((src) => zones(src, { tests: true })) }],
      },
    },
  ];
}
