import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './scripts/build/precompress-plugin.ts';
import { prerenderSignIn } from './scripts/build/prerender-sign-in-plugin.ts';

/** Mantine and what its components use, beside the icons: one chunk for every signed-in screen. */
const SIGNED_IN_UI =
  /node_modules[\\/](@mantine[\\/](core|hooks|modals|store)|@floating-ui|@tabler[\\/]icons-react|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|tslib|react-textarea-autosize|react-number-format|clsx)[\\/]/;
const SHARED_WEB_CODE = /src[\\/]web[\\/](components|lib)[\\/]/;
/** Forms bring zod, @mantine/form and the date pickers: they stay with the screens and modals that have forms. */
export const FORM_CODE = /[\\/](crud-page|form-fields|use-zod-form|e-invoicing-modal)\.tsx?$/;

/**
 * docs/design.md §2 installable app: Workbox precaches the built shell (scripts, styles, icons) so a signed-in screen
 * opens with no network after one visit; every navigation falls back to index.html. The API is never cached here:
 * the last answers a courier saw live in IndexedDB (src/web/lib/offline-cache.ts). The signed-in layout registers it.
 */
const pwa = VitePWA({
  injectRegister: false,
  registerType: 'autoUpdate',
  includeAssets: ['favicon.svg'],
  manifest: {
    name: 'PadTrack',
    short_name: 'PadTrack',
    description: 'Accountable receipt pads: custody, usage and hand-overs',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1864ab',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [/^\/api(\/|$)/],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
  },
});

export default defineConfig({
  plugins: [react(), prerenderSignIn(), precompress(), pwa],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    /*
     * Everything the entry imports statically in one chunk: the sign-in page then asks for one script, not five small ones.
     * A signed-in screen then asks for the Mantine parts the sign-in page did not need, in one chunk, and the shared web
     * code in another, instead of some forty small chunks that a phone's six connections would fetch one round trip at a time.
     */
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'shared', tags: ['$initial'], priority: 20 },
            { name: 'ui', test: SIGNED_IN_UI, priority: 10 },
            { name: 'app', test: (id) => SHARED_WEB_CODE.test(id) && !FORM_CODE.test(id), priority: 5 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
