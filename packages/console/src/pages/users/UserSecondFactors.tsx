import { formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ConfirmButton } from '../../ui/Dialog.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { TitledSection } from '../../ui/Section.tsx';
import { t } from './i18n/index.ts';

/**
 * Support's view of another user's second factors on `/users/{id}`, with Reset second factors for a user
 * who lost their phone or key: every factor and recovery code goes, the user is signed out and told by email.
 */
export function UserSecondFactors({ userId, userName }: { userId: string; userName: string }) {
  const query = useRpcQuery(['auth', 'listSecondFactors', userId], { userId });
  const [notice, setNotice] = useState<string>();
  const factors = query.data?.factors ?? [];
  return (
    <TitledSection
      id="user-second-factor-title"
      title={t('users.secondFactors.title')}
      actions={
        factors.length > 0 && (
          <ConfirmButton
            variant="danger"
            label={t('users.secondFactors.reset')}
            title={t('users.secondFactors.resetTitle')}
            cancelLabel={t('users.secondFactors.keep')}
            confirmLabel={t('users.secondFactors.reset')}
            tone="danger"
            action={() => rpc('auth', 'resetSecondFactors', { userId })}
            onDone={() => {
              setNotice(t('users.secondFactors.resetDone', { name: userName }));
              query.reload();
            }}
          >
            <p>{t('users.secondFactors.resetBody', { name: userName })}</p>
          </ConfirmButton>
        )
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>
        {({ required }) =>
          factors.length === 0 ? (
            <p className="muted">{required ? t('users.secondFactors.noneRequired') : t('users.secondFactors.none')}</p>
          ) : (
            <ul>
              {factors.map((f) => (
                <li key={f.id}>
                  {t('users.secondFactors.item', {
                    name: f.name,
                    kind: f.kind === 'totp' ? t('users.secondFactors.totp') : t('users.secondFactors.passkey'),
                    when: f.lastUsed === null ? t('users.secondFactors.never') : formatDateTime(f.lastUsed),
                  })}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </TitledSection>
  );
}
