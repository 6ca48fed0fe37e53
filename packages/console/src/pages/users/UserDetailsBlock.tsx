import type { IdentityProviderRef, User } from '@medlocker/core';
import { DetailsItem } from '../../ui/Details.tsx';
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
      <DetailsItem term={t('users.details.email')}>{user.email}</DetailsItem>
      <DetailsItem term={t('users.details.givenName')}>{user.givenName || '—'}</DetailsItem>
      <DetailsItem term={t('users.details.familyName')}>{user.familyName || '—'}</DetailsItem>
      <DetailsItem term={t('users.details.identityProvider')}>
        {identityProvider?.name ?? t('users.details.password')}
      </DetailsItem>
    </dl>
  );
}
