import { Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { Login } from './pages/auth/Login.tsx';
import { Register } from './pages/auth/Register.tsx';
import { Reset } from './pages/auth/Reset.tsx';
import { ResetBegin } from './pages/auth/ResetBegin.tsx';
import { ToLogin } from './pages/auth/ToLogin.tsx';
import { AuthLayout } from './shell/AuthLayout.tsx';
import { lazyPage } from './ui/lazy-page.ts';
import { Loading } from './ui/Page.tsx';

// The sign-in pages come with the first download; the console behind them loads when first needed.
const SignedInRoutes = lazyPage(() => import('./signed-in-routes.tsx'), 'SignedInRoutes');

/** SPEC §2, screens and routes. */
export function AppRoutes() {
  return (
    <Routes>
      {/* Auth routes: open to everyone. Any other /auth path goes to login, keeping the origin. */}
      <Route path="auth" element={<AuthLayout />}>
        <Route path="login" element={<Login />} />
        <Route path="register" element={<Register />} />
        <Route path="reset/begin" element={<ResetBegin />} />
        <Route path="reset" element={<Reset />} />
        <Route index element={<ToLogin />} />
        <Route path="*" element={<ToLogin />} />
      </Route>
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
