import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * No serious or critical WCAG problem on the page as it is now (`state` names it in the failure). Left
 * out, as it is the same on every page and not any page's own: react-aria's off-screen live
 * announcer, whose past announcements (a pending button's, a Select's) stay as images labelled by
 * elements since gone.
 */
export async function expectAccessible(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).exclude('[data-live-announcer]').analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `axe on ${state}`).toEqual([]);
}
