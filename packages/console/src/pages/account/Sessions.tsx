import { formatDateTime, type StaffSession } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useCurrentUser } from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { SectionHead } from '../../ui/Section.tsx';
import { ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';

/** The query key of a user's sessions list (undefined: one's own), so a password change can refresh it. */
export const sessionsKey = (userId: string | undefined) => ['auth', 'listSessions', userId ?? 'me'];

/**
 * A user's live sessions: device (from the user agent), address, signed in, last seen, "This session"
 * marked, End per row and End all other sessions. On one's own account page (`userId` undefined), and
 * for support staff on `/users/{id}` (docs/decisions/auth.md: a pharmacy Admin does not see them).
 */
export function SessionsSection({ userId, userName }: { userId?: string; userName?: string }) {
  const query = useQuery(
    (signal) => rpc('auth', 'listSessions', userId ? { userId } : {}, { signal }),
    sessionsKey(userId),
  );
  const [ending, setEnding] = useState<StaffSession | 'others' | null>(null);
  const [notice, setNotice] = useState<string>();
  const sessions = query.data?.sessions ?? [];
  const others = sessions.filter((s) => !s.current);
  const me = useCurrentUser();
  const own = userId === undefined || userId === me?.id;

  const done = (message: string) => {
    setEnding(null);
    setNotice(message);
    query.reload();
  };

  return (
    <section aria-labelledby="sessions-title">
      <SectionHead
        id="sessions-title"
        title="Sessions"
        actions={
          others.length > 0 && (
            <Button onPress={() => setEnding('others')}>{own ? 'End all other sessions' : 'End all sessions'}</Button>
          )
        }
      />
      {notice && <Banner tone="success">{notice}</Banner>}
      {query.error ? (
        <LoadError error={query.error} onRetry={query.reload} />
      ) : !query.data ? (
        <Loading />
      ) : (
        <SessionsTable sessions={sessions} own={own} onEnd={setEnding} />
      )}
      {ending !== null && (
        <EndConfirm
          ending={ending}
          own={own}
          userId={userId}
          userName={userName}
          onDone={done}
          onCancel={() => setEnding(null)}
        />
      )}
    </section>
  );
}

/** The sessions, "This session" marked, End on every other row. */
function SessionsTable({
  sessions,
  own,
  onEnd,
}: {
  sessions: StaffSession[];
  own: boolean;
  onEnd: (session: StaffSession) => void;
}) {
  return (
    <Table aria-labelledby="sessions-title">
      <TableHeader>
        <Column isRowHeader>Device</Column>
        <Column>Address</Column>
        <Column>Signed in</Column>
        <Column>Last seen</Column>
        <ActionsColumn />
      </TableHeader>
      <TableBody items={sessions} emptyText={own ? 'No other sessions' : 'No sessions: the user is not signed in'}>
        {(session) => (
          <Row id={session.id}>
            <Cell>
              <span title={session.userAgent ?? undefined}>{session.device}</span>
              {session.current && (
                <>
                  {' '}
                  <span className="badge badge--ok">This session</span>
                </>
              )}
            </Cell>
            <Cell>{session.ip ?? '—'}</Cell>
            <Cell>{formatDateTime(session.created)}</Cell>
            <Cell>{formatDateTime(session.lastSeen)}</Cell>
            <Cell>
              {!session.current && (
                <Button
                  variant="quiet"
                  aria-label={`End session ${session.device}, signed in ${formatDateTime(session.created)}`}
                  onPress={() => onEnd(session)}
                >
                  End
                </Button>
              )}
            </Cell>
          </Row>
        )}
      </TableBody>
    </Table>
  );
}

/** "End session?" for one, "End all other sessions?" (one's own) or "End all sessions?" (support's) for the rest. */
function EndConfirm({
  ending,
  own,
  userId,
  userName,
  onDone,
  onCancel,
}: {
  ending: StaffSession | 'others';
  own: boolean;
  userId: string | undefined;
  userName: string | undefined;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  if (ending === 'others') {
    return (
      <ConfirmAction
        title={own ? 'End all other sessions?' : 'End all sessions?'}
        cancelLabel="Keep sessions"
        confirmLabel={own ? 'End other sessions' : 'End sessions'}
        isOpen
        action={() => rpc('auth', 'endOtherSessions', userId ? { userId } : {})}
        onDone={() => onDone(own ? 'Your other sessions have been ended.' : 'Sessions ended.')}
        onCancel={onCancel}
      >
        <p>
          {own
            ? 'Every other browser and device signed in as you is signed out at once. This one stays.'
            : `${userName ?? 'The user'} is signed out everywhere at once.`}
        </p>
      </ConfirmAction>
    );
  }
  return (
    <ConfirmAction
      title="End session?"
      cancelLabel="Keep session"
      confirmLabel="End session"
      isOpen
      action={() => rpc('auth', 'endSession', { sessionId: ending.id })}
      onDone={() => onDone('Session ended.')}
      onCancel={onCancel}
    >
      <p>
        {ending.device}
        {ending.ip ? ` at ${ending.ip}` : ''}, signed in {formatDateTime(ending.created)}, is signed out at once.
      </p>
    </ConfirmAction>
  );
}
