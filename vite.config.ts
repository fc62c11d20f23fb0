import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress-plugin.ts';

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    /* Everything the entry imports statically in one chunk: the sign-in page then asks for one script, not five small ones. */
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shared', tags: ['$initial'] }] } } },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
