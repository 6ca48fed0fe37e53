import { expect, type Page } from '@playwright/test';
import axe from 'axe-core';

/**
 * The WCAG 2.2 AA rules (levels A and AA of WCAG 2.0, 2.1 and 2.2) that axe-core checks: the standard
 * docs/ACCESSIBILITY.md says the console and the patient pages meet.
 */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * What axe leaves out of every page, each with its reason (docs/ACCESSIBILITY.md lists them too):
 * - `[data-live-announcer]`: react-aria's off-screen live announcer. Its past announcements (a
 *   pending button's, a Select's) stay as images labelled by elements since gone; it is the same on
 *   every page and no page's own content, and screen readers have already read it.
 */
export const AXE_EXCLUDED = ['[data-live-announcer]'];

/**
 * axe-core's `run` on the page as it is now. axe is put into a document once and run there as often as
 * asked (a resized page, a dialog opened): @axe-core/playwright evaluated its 550 KB source again at
 * every check and finished each in a new blank page, three times the time of the checks themselves.
 * Our pages have no frames, which is all that package adds.
 */
async function runAxe(page: Page): Promise<axe.AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    ({ tags, exclude }) =>
      (window as unknown as { axe: typeof axe }).axe.run(
        { exclude: exclude.map((selector) => [selector]) },
        { runOnly: { type: 'tag', values: tags } },
      ),
    { tags: WCAG_TAGS, exclude: AXE_EXCLUDED },
  );
}

/**
 * No WCAG 2.2 A or AA problem of any impact (minor included) on the page as it is now; `state` names
 * it in the failure. Every spec that checks accessibility calls this one; `soft` lets a test that walks
 * many screens go on to the next and fail at its end with all of them.
 */
export async function expectAccessible(page: Page, state: string, options: { soft?: boolean } = {}) {
  const results = await runAxe(page);
  const bad = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(', ')}`,
  );
  (options.soft ? expect.soft : expect)(bad, `axe on ${state}`).toEqual([]);
}
