// npm start: build the web app if needed, then run the server (migrates and seeds on first run).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureWebBuild, ROOT } from './lib/web-build.mjs';

try {
  ensureWebBuild();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], {
  cwd: process.cwd(),
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
