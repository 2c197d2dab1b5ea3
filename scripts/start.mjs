// npm start: build the web app and the server bundle if they are missing or stale, then run the server
// (migrates and seeds on first run) in this process: apps/server/dist/main.mjs, plain JavaScript (decision 041).
import { pathToFileURL } from 'node:url';
import { ensureServerBuild, SERVER_BUNDLE } from './lib/server-build.mjs';
import { ensureWebBuild } from './lib/web-build.mjs';

try {
  ensureWebBuild();
  await ensureServerBuild();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

// Stack traces name the TypeScript sources (reading the bundle's source maps costs a few ms at load).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_BUNDLE).href);
