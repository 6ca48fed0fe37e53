import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A one-time message handed to the next page in the navigation state ('Business role added.').
 * It is read once and removed from the history entry, so a reload or Back does not repeat it.
 */
export function useFlashNotice(): string | undefined {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { notice?: string } | null;
  const [notice] = useState(() => state?.notice);

  useEffect(() => {
    if (state?.notice === undefined) return;
    const { notice: _shown, ...rest } = state;
    navigate(`${location.pathname}${location.search}${location.hash}`, {
      replace: true,
      state: Object.keys(rest).length > 0 ? rest : null,
    });
  }, [state, location.pathname, location.search, location.hash, navigate]);

  return notice;
}
