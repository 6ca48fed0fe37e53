import { createStore } from 'jotai';

/**
 * The console's one jotai store. The React tree reads it through `<Provider store={store}>`; code
 * outside React (the RPC client's 401/403 listener, later the live-update socket) writes to it.
 */
export const store = createStore();
