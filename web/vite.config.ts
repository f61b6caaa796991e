import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

export default defineConfig({
  root: path.resolve(import.meta.dirname),
  plugins: [react()],
  // The icon set's drawing data as two lazily loaded chunks (an app icon may be
  // any Tabler name); the package's exports map does not expose these files.
  resolve: {
    alias: {
      'tabler-icon-nodes/outline': path.resolve(import.meta.dirname, '../node_modules/@tabler/icons/tabler-nodes-outline.json'),
      'tabler-icon-nodes/filled': path.resolve(import.meta.dirname, '../node_modules/@tabler/icons/tabler-nodes-filled.json'),
    },
  },
  build: { outDir: path.resolve(import.meta.dirname, 'dist'), emptyOutDir: true, assetsDir: 'assets' },
  server: { proxy: { '/api': 'http://localhost:5212' } },
});
