// Build step: a Brotli (.br) and a gzip (.gz) copy of every text asset the
// build writes, made once with the strongest settings, so the server sends
// them as they are (server/src/web.ts, @fastify/static `preCompressed`)
// instead of compressing on every request. A copy is kept only when it is
// smaller than the file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

export function compressFile(file: string): void {
  const raw = readFileSync(file);
  // The page itself is compressed whatever its size: every first visit downloads it.
  if (raw.length < MIN_BYTES && path.basename(file) !== 'index.html') return;
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  const gz = gzipSync(raw, { level: 9 });
  if (br.length < raw.length) writeFileSync(file + '.br', br);
  if (gz.length < raw.length) writeFileSync(file + '.gz', gz);
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'cirrus:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) if (TEXT.test(fileName)) compressFile(path.join(outDir, fileName));
    },
  };
}
