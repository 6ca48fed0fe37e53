import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { logOut } from '../state/session.ts';
import { Button, type ButtonProps } from '../ui/Button.tsx';

/** Logs out, whatever the server answers, and opens the login page. */
export function LogOutButton({
  variant,
  className,
  children,
}: {
  variant: ButtonProps['variant'];
  className?: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant={variant}
      className={className}
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
      {children}
    </Button>
  );
}
