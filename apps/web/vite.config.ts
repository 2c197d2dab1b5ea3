import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/** The line of public/ngsw-worker.js a build replaces with its own version. */
const WORKER_VERSION_LINE = "const VERSION = 'development';";

/**
 * Writes the build's version into the copied ngsw-worker.js: a hash of the emitted file names, which carry
 * content hashes. A deployment that changes any file changes the worker, so open tabs see an update.
 */
function serviceWorkerVersion(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pos:service-worker-version',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const file = path.join(outDir, 'ngsw-worker.js');
      const source = readFileSync(file, 'utf8');
      if (!source.includes(WORKER_VERSION_LINE)) throw new Error(`${file} has no line ${WORKER_VERSION_LINE}`);
      const version = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 16);
      writeFileSync(file, source.replace(WORKER_VERSION_LINE, `const VERSION = '${version}';`));
    },
  };
}

/** The API server in development (`npm run dev` starts it on this port). */
const apiTarget = 'http://127.0.0.1:3000';

const config = {
  plugins: [react(), serviceWorkerVersion()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/.well-known': { target: apiTarget, changeOrigin: false },
      // The built-in identity provider's sign-in page (IDENTITY_PROVIDER=local).
      '/oidc': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each route loads, read by npm run bench (bench/bundle.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // React and TanStack Query change far less often than our code and every route needs them: their own
        // long-cached chunks. Mantine, zod and the rest are split by who imports them, so the first route (#/login)
        // loads only the components it draws and no zod (issue 13: ≤ 150 kB gzip; bench/bundle.ts measures it).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build started from a test runner inherits NODE_ENV=test, which would make Vite bundle React's
  // development build and set import.meta.env.PROD to false. The product is always built for production;
  // only an explicit NODE_ENV=development build stays one.
  if (command === 'build' && process.env.NODE_ENV !== 'development') process.env.NODE_ENV = 'production';
  return config;
});
