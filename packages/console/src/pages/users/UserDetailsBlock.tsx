import type { IdentityProviderRef, User } from '@medlocker/core';

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
        <dt>Email</dt>
        <dd>{user.email}</dd>
      </div>
      <div className="details__item">
        <dt>First name</dt>
        <dd>{user.givenName || '—'}</dd>
      </div>
      <div className="details__item">
        <dt>Surname</dt>
        <dd>{user.familyName || '—'}</dd>
      </div>
      <div className="details__item">
        <dt>Identity provider</dt>
        <dd>{identityProvider?.name ?? 'None (password)'}</dd>
      </div>
    </dl>
  );
}
