import { useState } from 'react';
import { useNavigate } from 'react-router';
import { logOut, useCurrentUser } from '../state/session.ts';
import { Button } from '../ui/Button.tsx';

/** SPEC §2: 'Logged in as' the user's name, with a Log out action. */
export function UserPanel() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  if (!user) return null;
  return (
    <section className="user-panel" aria-label="Your account">
      <p className="user-panel__who">
        Logged in as <strong>{user.name}</strong>
      </p>
      <Button
        variant="quiet"
        className="user-panel__logout"
        isPending={pending}
        onPress={async () => {
          setPending(true);
          try {
            await logOut();
          } finally {
            navigate('/auth/login', { replace: true });
          }
        }}
      >
        Log out
      </Button>
    </section>
  );
}
