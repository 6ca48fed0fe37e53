import type { ReactNode } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';

/** "Check your email": what was sent, and the way back to log in. */
export function EmailSent({ children }: { children: ReactNode }) {
  return (
    <>
      <h1 className="card__title">Check your email</h1>
      <Banner tone="success">{children}</Banner>
      <BackToLogIn />
    </>
  );
}

export function BackToLogIn() {
  return (
    <p className="auth__links">
      <Link href="/auth/login">Back to log in</Link>
    </p>
  );
}
