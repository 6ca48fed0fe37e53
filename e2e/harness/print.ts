import type { Page } from '@playwright/test';

/** window.print replaced, before any script of the page runs, by a counter (the label specs). */
export async function stubPrint(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { prints: number; print: () => void };
    w.prints = 0;
    w.print = () => {
      w.prints += 1;
    };
  });
}

/** How many times the page has opened the browser's print since it loaded. */
export const prints = (page: Page) => page.evaluate(() => (window as unknown as { prints: number }).prints);
