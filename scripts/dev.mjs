// npm run dev: the server with reload on change (port 3000) and Vite's dev server with a proxy (port 5173).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/web-build.mjs';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', path.join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
  }),
  spawn('npx', ['vite'], { cwd: path.join(ROOT, 'apps/web'), stdio: 'inherit' }),
];
console.log('Dev servers: API on http://localhost:3000, web app on http://localhost:5173');
function stop(code = 0) {
  for (const c of children) c.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
for (const c of children) c.on('exit', (code) => stop(code ?? 1));
