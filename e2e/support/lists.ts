import type { Page } from 'playwright-core';

/** The list in `main` has answered: its caption no longer says "loading" and no table is fetching (aria-busy). */
export async function listReady(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const caption = document.querySelector('main table caption');
    return (
      caption !== null &&
      !/loading/i.test(caption.textContent ?? '') &&
      document.querySelector('main table[aria-busy="true"]') === null
    );
  });
}
