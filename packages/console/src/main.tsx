import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { queryClient } from './api/queries.ts';
import { AppRoutes } from './routes.tsx';
import { AriaRouter } from './shell/AriaRouter.tsx';
import { loadConfig, loadSession, watchAuthFailures } from './state/session.ts';

watchAuthFailures(queryClient);
void loadConfig();
void loadSession(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AriaRouter>
          <AppRoutes />
        </AriaRouter>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
