import type { QueryClient } from '@tanstack/react-query';
import { queryClient } from '../api/queries.ts';
import { onLivePush, onLiveSessionEnded } from './live.ts';
import { getSessionState, loadSession } from './session.ts';

/**
 * The live socket speaks for the session too: `switchBusiness` (the user's roles changed) and a hang-up
 * because the session ended or lost the support scope make the console read its session again, which
 * shows the login page with the timeout message or Access Restricted as the answer says.
 */
export function watchLiveAccess(client: QueryClient = queryClient): () => void {
  const reload = () => {
    if (getSessionState(client).status === 'active') void loadSession(client);
  };
  const stopPushes = onLivePush((push) => {
    if (push.action === 'switchBusiness') reload();
  });
  const stopRefusals = onLiveSessionEnded(reload);
  return () => {
    stopPushes();
    stopRefusals();
  };
}
