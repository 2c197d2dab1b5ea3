// npm test: every vitest project (domain, server, web, e2e), then one closing line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/web-build.mjs';

const report = path.join(ROOT, '.tmp/vitest-report.json');
mkdirSync(path.dirname(report), { recursive: true });
rmSync(report, { force: true });

const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const res = spawnSync('npx', args, { cwd: ROOT, stdio: 'inherit' });

if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\nTests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) {
    console.error('No test ran.');
    process.exit(1);
  }
}
process.exit(res.status ?? 1);
