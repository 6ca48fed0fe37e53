import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { showStartingLocale } from './i18n/index.ts';
import { App } from './routes.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/** The page in the language it starts in (Welsh's catalog fetched first when that is it), then rendered. */
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
showStartingLocale().then(render, render);
