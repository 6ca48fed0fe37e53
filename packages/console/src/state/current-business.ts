import type { BusinessInfo } from '@medlocker/core';
import { useAtom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { type RpcOutput, rpc } from '../api/client.ts';
import { useQuery, useRpcQuery } from '../api/queries.ts';
import { useHasSupportScope } from './session.ts';

/**
 * The pharmacy console's current business: the business whose Orders, Patients, Machines,
 * Users and Settings the menu links to and whose dashboard `/` shows. It follows the address when a
 * business's page is open, else the one last chosen in this browser, else the first the user reaches.
 * Support staff have none: their menu and dashboard cover every business.
 */

// Local, not session, storage: the choice outlives the tab, as the group pages' filters do (SPEC §2).
const lastChosenAtom = atomWithStorage<string | null>(
  'medlocker.currentBusiness',
  null,
  createJSONStorage<string | null>(() => globalThis.localStorage),
  { getOnInit: true },
);

/** The business id in a `/businesses/{id}/…` path (not `/businesses/add`), or null. */
export function businessIdInPath(pathname: string): string | null {
  const match = /^\/businesses\/([^/]+)/.exec(pathname);
  if (!match?.[1] || match[1] === 'add') return null;
  return decodeURIComponent(match[1]);
}

/** Which of `businesses` is current: the one in the address, else the last chosen, else the first. */
export function pickCurrent<T extends { id: string }>(
  businesses: readonly T[],
  inPath: string | null,
  lastChosen: string | null,
): T | null {
  return (
    businesses.find((b) => b.id === inPath) ?? businesses.find((b) => b.id === lastChosen) ?? businesses[0] ?? null
  );
}

/**
 * Where switching to `businessId` leads from `pathname`: the same section of the other business (its
 * orders from orders, its settings from settings), not the item open in it (an order or machine of one
 * business is not in the other); pages that are not a business's (the dashboard, groups) stay.
 */
export function switchedPath(pathname: string, businessId: string): string | null {
  if (businessIdInPath(pathname) === null) return null;
  const section = pathname.split('/')[3];
  const base = `/businesses/${encodeURIComponent(businessId)}`;
  return section ? `${base}/${section}` : base;
}

type Accessible = RpcOutput<'businesses', 'listAccessibleBusinesses'>;

/** Every page of listAccessibleBusinesses: a pharmacy user reaches a handful, a large group a few pages. */
async function loadAllAccessible(): Promise<BusinessInfo[]> {
  const all: BusinessInfo[] = [];
  let nextToken: string | null = null;
  do {
    const page: Accessible = await rpc('businesses', 'listAccessibleBusinesses', { nextToken });
    all.push(...page.businesses);
    nextToken = page.nextToken;
  } while (nextToken);
  return all;
}

export type CurrentBusiness = {
  /** The active businesses the user reaches (their Business roles and their groups' businesses). */
  businesses: BusinessInfo[];
  current: BusinessInfo | null;
  /** Makes `id` the current business (remembered for the next visit). */
  choose: (id: string) => void;
  isLoading: boolean;
  error: unknown;
  reload: () => void;
};

/** The current business of a pharmacy user (see the module comment); support staff get none. */
export function useCurrentBusiness(): CurrentBusiness {
  const support = useHasSupportScope();
  const { pathname } = useLocation();
  const [lastChosen, setLastChosen] = useAtom(lastChosenAtom);
  const query = useQuery(
    () => (support ? Promise.resolve([]) : loadAllAccessible()),
    ['businesses', 'listAccessibleBusinesses', support ? 'support' : 'pharmacy', 'all'],
  );
  const businesses = query.data ?? [];
  const current = pickCurrent(businesses, businessIdInPath(pathname), lastChosen);
  // A business opened by its address becomes the one the dashboard shows next time.
  useEffect(() => {
    if (current && current.id !== lastChosen) setLastChosen(current.id);
  }, [current, lastChosen, setLastChosen]);
  return {
    businesses,
    current,
    choose: setLastChosen,
    isLoading: query.isLoading,
    error: query.error,
    reload: query.reload,
  };
}

/**
 * The group of a business (null when in none), undefined while loading: the Admin check needs it, as a
 * Group Admin administers the group's businesses. Shares the business pages' cached getBusiness answer.
 */
export function useBusinessGroupId(businessId: string): string | null | undefined {
  const query = useRpcQuery(['businesses', 'getBusiness', businessId], { id: businessId });
  return query.data?.business.groupId;
}
