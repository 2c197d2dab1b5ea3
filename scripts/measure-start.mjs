// node scripts/measure-start.mjs [--runs N] [--via npm|node]
// Time from launching `npm start` to the first 200 of GET /api/health on an already seeded data directory
// (a temp DATA_DIR and a free port of its own); prints each start and the median. npm run bench records it too.
import os from 'node:os';
import { measureLaterStarts } from './lib/measure-start.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > -1 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('runs', '5'));
const via = arg('via', 'npm');

console.log(
  `${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; starting via ${via}`,
);
const result = await measureLaterStarts({ runs, via, log: (m) => console.log(m) });
console.log(`later start → healthy: median ${result.medianLaterStartMs} ms of ${result.laterStartsMs.join(', ')}`);
