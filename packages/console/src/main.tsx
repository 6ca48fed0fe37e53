import { Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './routes.tsx';
import { AriaRouter } from './shell/AriaRouter.tsx';
import { loadConfigAtom, loadSessionAtom, watchAuthFailures, watchLiveAccess } from './state/session.ts';
import { store } from './state/store.ts';

watchAuthFailures(store);
watchLiveAccess(store);
void store.set(loadConfigAtom);
void store.set(loadSessionAtom);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <AriaRouter>
          <AppRoutes />
        </AriaRouter>
      </BrowserRouter>
    </Provider>
  </StrictMode>,
);
