import { formatDateTime, type StaffSession } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { useCurrentUser } from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { TitledSection } from '../../ui/Section.tsx';
import { ActionCell, ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { t } from './i18n/index.ts';

/** The query key of a user's sessions list (undefined: one's own), so a password change can refresh it. */
export const sessionsKey = (userId: string | undefined) => ['auth', 'listSessions', userId ?? 'me'] as const;

/**
 * A user's live sessions: device (from the user agent), address, signed in, last seen, "This session"
 * marked, End per row and End all other sessions. On one's own account page (`userId` undefined), and
 * for support staff on `/users/{id}` (docs/decisions/auth.md: a pharmacy Admin does not see them).
 */
export function SessionsSection({ userId, userName }: { userId?: string; userName?: string }) {
  const query = useRpcQuery(sessionsKey(userId), userId ? { userId } : {});
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
    <TitledSection
      id="sessions-title"
      title={t('account.sessions.title')}
      actions={
        others.length > 0 && (
          <Button onPress={() => setEnding('others')}>
            {own ? t('account.sessions.endOthers') : t('account.sessions.endAll')}
          </Button>
        )
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>
        {(data) => <SessionsTable sessions={data.sessions} own={own} onEnd={setEnding} />}
      </QueryView>
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
    </TitledSection>
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
        <Column isRowHeader>{t('account.sessions.device')}</Column>
        <Column>{t('account.sessions.address')}</Column>
        <Column>{t('account.sessions.signedIn')}</Column>
        <Column>{t('account.sessions.lastSeen')}</Column>
        <ActionsColumn />
      </TableHeader>
      <TableBody items={sessions} emptyText={own ? t('account.sessions.noOthers') : t('account.sessions.none')}>
        {(session) => (
          <Row id={session.id}>
            <Cell>
              <span title={session.userAgent ?? undefined}>{session.device}</span>
              {session.current && (
                <>
                  {' '}
                  <span className="badge badge--ok">{t('account.sessions.current')}</span>
                </>
              )}
            </Cell>
            <Cell>{session.ip ?? '—'}</Cell>
            <Cell>{formatDateTime(session.created)}</Cell>
            <Cell>{formatDateTime(session.lastSeen)}</Cell>
            <ActionCell
              label={t('account.sessions.endLabel', {
                device: session.device,
                created: formatDateTime(session.created),
              })}
              onPress={() => onEnd(session)}
              isOffered={!session.current}
            >
              {t('account.sessions.end')}
            </ActionCell>
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
        title={own ? t('account.sessions.endOthersTitle') : t('account.sessions.endAllTitle')}
        cancelLabel={t('account.sessions.keepAll')}
        confirmLabel={own ? t('account.sessions.endOthersConfirm') : t('account.sessions.endAllConfirm')}
        action={() => rpc('auth', 'endOtherSessions', userId ? { userId } : {})}
        onDone={() => onDone(own ? t('account.sessions.othersEnded') : t('account.sessions.allEnded'))}
        onCancel={onCancel}
      >
        <p>
          {own
            ? t('account.sessions.endOthersBody')
            : t('account.sessions.endAllBody', { name: userName ?? t('account.sessions.theUser') })}
        </p>
      </ConfirmAction>
    );
  }
  return (
    <ConfirmAction
      title={t('account.sessions.endOneTitle')}
      cancelLabel={t('account.sessions.keepOne')}
      confirmLabel={t('account.sessions.endOneConfirm')}
      action={() => rpc('auth', 'endSession', { sessionId: ending.id })}
      onDone={() => onDone(t('account.sessions.oneEnded'))}
      onCancel={onCancel}
    >
      <p>
        {ending.ip
          ? t('account.sessions.endOneBodyAt', {
              device: ending.device,
              ip: ending.ip,
              created: formatDateTime(ending.created),
            })
          : t('account.sessions.endOneBody', { device: ending.device, created: formatDateTime(ending.created) })}
      </p>
    </ConfirmAction>
  );
}
