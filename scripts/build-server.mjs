// Part of `npm run build`: bundle the server into apps/server/dist (decision 041). npm start does this itself
// when the bundle is missing or older than its sources.
import path from 'node:path';
import { buildServer, SERVER_BUNDLE } from './lib/server-build.mjs';
import { ROOT } from './lib/web-build.mjs';

const started = Date.now();
try {
  await buildServer();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
console.log(`Server bundle: ${path.relative(ROOT, SERVER_BUNDLE)} (${Date.now() - started} ms)`);
