import { Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { ToSignInPage } from './shell/ToSignInPage.tsx';
import { lazyPage } from './ui/lazy-page.ts';
import { Loading } from './ui/Page.tsx';

// The console behind sign-in loads when first needed; the sign-in pages are not part of this app.
const SignedInRoutes = lazyPage(() => import('./signed-in-routes.tsx'), 'SignedInRoutes');

/** SPEC §2, screens and routes. */
export function AppRoutes() {
  return (
    <Routes>
      {/* Auth routes: the sign-in page (sign-in.html), open to everyone, loaded with a page load. */}
      <Route path="auth/*" element={<ToSignInPage />} />
      <Route
        path="*"
        element={
          <Suspense
            fallback={
              <div className="centered">
                <Loading />
              </div>
            }
          >
            <SignedInRoutes />
          </Suspense>
        }
      />
    </Routes>
  );
}
