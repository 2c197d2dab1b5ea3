import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Keeps a screenshot of a journey as an artifact (issue 30): in E2E_SCREENSHOTS when set, else in
 * test-results/screenshots (ignored by git; CI keeps the folder): what the viewport shows, named by the step.
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS ?? path.join(ROOT, 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
