import { QueryClientProvider } from '@tanstack/react-query';
import { Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { queryClient } from './api/queries.ts';
import { AppRoutes } from './routes.tsx';
import { AriaRouter } from './shell/AriaRouter.tsx';
import { invalidateOnLivePush } from './state/invalidate.ts';
import { loadConfigAtom, loadSessionAtom, watchAuthFailures, watchLiveAccess } from './state/session.ts';
import { store } from './state/store.ts';

watchAuthFailures(store);
watchLiveAccess(store);
invalidateOnLivePush(queryClient);
void store.set(loadConfigAtom);
void store.set(loadSessionAtom);

/**
 * A data router (for `useBlocker`: the unsaved-changes guard asks before Back leaves a form) whose one
 * catch-all route renders the route table of routes.tsx, declared as `<Routes>` like SPEC §2.
 */
const router = createBrowserRouter([
  {
    path: '*',
    element: (
      <AriaRouter>
        <AppRoutes />
      </AriaRouter>
    ),
  },
]);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </QueryClientProvider>
  </StrictMode>,
);
