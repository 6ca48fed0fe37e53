import { NextToken } from '../validation/string-limits.ts';

/**
 * The paging field of a keyset-paged list's input, spread into it: `nextToken`, the cursor the previous
 * page answered; left out or null for the first page. Each list answers its rows and the next page's
 * `nextToken`, null on the last page.
 */
export const Paging = { 'nextToken?': NextToken } as const;
