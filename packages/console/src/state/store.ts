import { createStore } from 'jotai';

/**
 * The console's one jotai store, for UI state only (server state, the session included, is in the
 * TanStack Query cache). The React tree reads it through `<Provider store={store}>`; code outside
 * React (the live-update socket) writes to it.
 */
export const store = createStore();
