import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort, startServer } from './support/server';

const e2e = inject('e2e');

describe.skipIf(!e2e.dataDir)('npm start', () => {
  it('refuses a second process on the same data directory with a clear message', async () => {
    const port = await freePort();
    const second = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: e2e.dataDir });
    const code = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toMatch(/data directory .* is in use by another pos-backoffice process/);
  });
});
