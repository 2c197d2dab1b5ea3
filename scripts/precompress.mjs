#!/usr/bin/env node
/*
 * After `vite build`: a brotli (.br) and a gzip (.gz) copy beside each text file of the web build that is worth
 * compressing (issue 32, item 1) — the server sends the one the browser accepts (@fastify/static preCompressed),
 * as a CDN would, without compressing anything per request. Maximum quality: it runs once per build.
 *
 *   node scripts/precompress.mjs [dir]   (default apps/web/dist)
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

function* filesOf(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* filesOf(full);
    else yield full;
  }
}

export function precompress(dir) {
  let files = 0;
  let before = 0;
  let after = 0;
  for (const file of filesOf(dir)) {
    if (!TEXT.test(file)) continue;
    const body = readFileSync(file);
    if (body.length < MIN_BYTES) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gz);
    files += 1;
    before += body.length;
    after += br.length;
  }
  return { files, before, after };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
  const dir = path.resolve(process.argv[2] ?? path.join(root, 'apps/web/dist'));
  const { files, before, after } = precompress(dir);
  console.log(
    `precompressed ${files} files: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB brotli`,
  );
}
