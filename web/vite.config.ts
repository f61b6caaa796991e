import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { precompress } from './build/precompress';
import { tablerBuckets } from './build/tabler-buckets';

export default defineConfig({
  root: path.resolve(import.meta.dirname),
  plugins: [
    react(),
    // The icon set's drawing data in small chunks loaded on demand (an app
    // icon may be any Tabler name): see build/tabler-buckets.ts.
    tablerBuckets(path.resolve(import.meta.dirname, '../node_modules/@tabler/icons')),
    // .br and .gz beside every text asset, served as they are by server/src/web.ts.
    precompress(),
  ],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the first page needs in one file beside the entry, not
            // twenty small ones: each response costs ~0.5 KB of headers and a
            // round trip.
            { name: 'start', tags: ['$initial'], priority: 20 },
            // The consent page with what it uses (Mantine parts, app icons' code):
            // taken before the shell's group, so the consent page never pulls the
            // shell; the shell loads this file for the parts they share.
            { name: 'consent', test: /[\\/]web[\\/]src[\\/](?:pages[\\/](?:AuthorizePage|authorize[\\/])|oauth[\\/])/, priority: 15 },
            // The shell and the file manager (the first signed-in page) with their
            // own dependencies: a handful of files instead of sixty.
            // Not the lazy parts (the preview and its highlighter, other pages).
            { name: 'shell', test: /@tanstack[\\/]|[\\/]web[\\/]src[\\/](?:app[\\/](?:AppLayout|QueryProvider|queryClient)|features[\\/]files[\\/](?!Preview|highlight|SearchPage|TrashPage)|features[\\/]uploads[\\/])/, priority: 10 },
          ],
        },
        chunkFileNames: (chunk) => {
          const icons = /^\0virtual:tabler-icons\/(outline|filled)\/(\d+)$/.exec(chunk.facadeModuleId ?? '');
          return icons ? `assets/tabler-${icons[1]}-${icons[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:5212' } },
});
