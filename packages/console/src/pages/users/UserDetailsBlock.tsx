import type { IdentityProviderRef, User } from '@medlocker/core';
import { t } from './i18n/index.ts';

/** SPEC §2 user-details block: email, first name, surname and identity provider. */
export function UserDetailsBlock({
  user,
  identityProvider,
}: {
  user: User;
  identityProvider: IdentityProviderRef | null;
}) {
  return (
    <dl className="details">
      <div className="details__item">
        <dt>{t('users.details.email')}</dt>
        <dd>{user.email}</dd>
      </div>
      <div className="details__item">
        <dt>{t('users.details.givenName')}</dt>
        <dd>{user.givenName || '—'}</dd>
      </div>
      <div className="details__item">
        <dt>{t('users.details.familyName')}</dt>
        <dd>{user.familyName || '—'}</dd>
      </div>
      <div className="details__item">
        <dt>{t('users.details.identityProvider')}</dt>
        <dd>{identityProvider?.name ?? t('users.details.password')}</dd>
      </div>
    </dl>
  );
}
