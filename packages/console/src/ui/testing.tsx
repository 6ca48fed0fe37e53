import { afterAll, afterEach } from 'bun:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { configKey, sessionKey } from '../state/session.ts';

/*
 * Component tests of the UI kit, in happy-dom. A test file calls {@link setUpDom} first: that puts a
 * DOM in the globals for that file only (it goes again after the file, so the other packages' tests
 * sharing the process see no `window`). Testing Library loads once a DOM exists; queries come from
 * what {@link renderPage} returns (its `screen` would stay bound to the first file's document).
 */

/** A DOM for this test file, taken down after it; rendered pages are unmounted after each test. */
export async function setUpDom() {
  GlobalRegistrator.register({ url: 'http://localhost/', width: 1280, height: 800 });
  // happy-dom lays nothing out: every element says it is as large as the window, so a virtual list
  // (ui/VirtualList) has room to render its rows.
  for (const [name, size] of [
    ['clientWidth', 1280],
    ['clientHeight', 800],
    ['offsetWidth', 1280],
    ['offsetHeight', 800],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => size });
  }
  const { cleanup } = await import('@testing-library/react');
  afterEach(cleanup);
  afterAll(() => GlobalRegistrator.unregister());
}

/**
 * What every console page has around it: a router at `path`, a fresh query cache (no one signed in and
 * the default configuration, so nothing asks the server) and UI store. Answers Testing Library's queries.
 */
export async function renderPage(page: ReactNode, path = '/') {
  const { render } = await import('@testing-library/react');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionKey, { status: 'anonymous' });
  client.setQueryData(configKey, { allowRegistration: false, productName: 'MedLocker' });
  return render(
    <QueryClientProvider client={client}>
      <Provider store={createStore()}>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  );
}

/** A user at the keyboard and mouse (Testing Library's user-event). */
export const user = async () => (await import('@testing-library/user-event')).userEvent.setup({ document });

/** Waits until `check` passes (Testing Library's waitFor). */
export const waitFor = async <T,>(check: () => T, timeout = 3000) =>
  (await import('@testing-library/react')).waitFor(check, { timeout });
