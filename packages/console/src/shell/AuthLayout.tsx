import { Outlet } from 'react-router';
import { useProductName } from '../state/session.ts';

/** The frame of the sign-in pages: the product name over one centred card. */
export function AuthLayout() {
  const product = useProductName();
  return (
    <div className="auth">
      <header className="auth__brand brand">
        <span className="brand__mark" aria-hidden="true">
          +
        </span>
        {product}
      </header>
      <main id="main" className="auth__main">
        <div className="card card--narrow">
          <Outlet />
        </div>
      </main>
      <footer className="auth__footer">{product} support console</footer>
    </div>
  );
}
