import type { IdentityProvider } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { ResourcePicker } from '../users/ResourcePicker.tsx';
import { t } from './i18n/index.ts';
import { type Connection, connectionOf, emptyRequired, providerInput, type Scope } from './provider-input.ts';

/* The add / edit form of an identity provider: OIDC or SAML; global, or for one business or group. */

/** A connection field's value and setter, for a TextField. */
type Bind = (key: keyof Connection) => { value: string; onChange: (value: string) => void };

export function ProviderForm({ existing }: { existing?: IdentityProvider }) {
  const navigate = useNavigate();
  const [name, setName] = useState(existing?.name ?? '');
  const [kind, setKind] = useState<'OIDC' | 'SAML'>(existing?.type ?? 'OIDC');
  const [scope, setScope] = useState<Scope>(existing?.businessId ? 'business' : existing?.groupId ? 'group' : 'global');
  const [resource, setResource] = useState<string | null>(existing?.businessId ?? existing?.groupId ?? null);
  const [connection, setConnection] = useState(() => connectionOf(existing?.configuration));
  const state = useSaveState();
  const bind: Bind = (key) => ({
    value: connection[key],
    onChange: (value) => setConnection((before) => ({ ...before, [key]: value })),
  });

  const save = async () => {
    const empty = emptyRequired(name, kind, connection);
    if (Object.keys(empty).length > 0) {
      state.setError(undefined);
      state.setFieldErrors(empty);
      return;
    }
    state.start();
    const input = providerInput(name, kind, scope === 'global' ? null : { scope, id: resource }, connection);
    try {
      const saved = existing
        ? await rpc('identityProviders', 'update', { ...input, id: existing.id })
        : await rpc('identityProviders', 'create', input);
      navigate(`/identityProviders/${saved.id}`, { state: { notice: t('identityProviders.form.saved') } });
    } catch (e) {
      state.fail(e);
    }
  };

  return (
    <PageForm
      state={state}
      save={save}
      cancelHref={existing ? `/identityProviders/${existing.id}` : '/identityProviders'}
    >
      <TextField
        label={t('identityProviders.form.name')}
        name="name"
        value={name}
        onChange={setName}
        isRequired
        autoFocus
      />
      {!existing && <KindSelect kind={kind} onKind={setKind} />}
      <ScopeFields
        scope={scope}
        resource={resource}
        onScope={(next) => {
          setScope(next);
          setResource(null);
        }}
        onResource={setResource}
        error={state.fieldErrors.businessId ?? state.fieldErrors.groupId}
      />
      {kind === 'OIDC' ? (
        <OidcFields bind={bind} secretStored={Boolean(existing?.configuration.clientSecretSet)} />
      ) : (
        <SamlFields bind={bind} />
      )}
      <TextField
        label={t('identityProviders.form.emailClaim')}
        name="configuration.claims.email"
        {...bind('emailClaim')}
        description={t('identityProviders.form.emailClaimHint')}
      />
    </PageForm>
  );
}

/** OpenID Connect or SAML 2.0: chosen when the provider is added, kept after. */
function KindSelect({ kind, onKind }: { kind: 'OIDC' | 'SAML'; onKind: (kind: 'OIDC' | 'SAML') => void }) {
  return (
    <Select
      label={t('identityProviders.form.type')}
      name="type"
      selectedKey={kind}
      onSelectionChange={(key) => key !== null && onKind(key === 'SAML' ? 'SAML' : 'OIDC')}
      options={[
        { id: 'OIDC', label: t('identityProviders.form.oidc') },
        { id: 'SAML', label: t('identityProviders.form.saml') },
      ]}
    />
  );
}

/** Whom the provider signs in: everyone, one business's staff or one group's. */
function ScopeFields({
  scope,
  resource,
  onScope,
  onResource,
  error,
}: {
  scope: Scope;
  resource: string | null;
  onScope: (scope: Scope) => void;
  onResource: (id: string | null) => void;
  error?: string;
}) {
  return (
    <>
      <Select
        label={t('identityProviders.form.for')}
        name="scope"
        selectedKey={scope}
        onSelectionChange={(key) => key !== null && onScope(key as Scope)}
        options={[
          { id: 'global', label: t('identityProviders.form.global') },
          { id: 'business', label: t('identityProviders.form.business') },
          { id: 'group', label: t('identityProviders.form.group') },
        ]}
      />
      {scope !== 'global' && (
        <ResourcePicker
          key={scope}
          kind={scope}
          selectedId={resource}
          onChange={(r) => onResource(r?.id ?? null)}
          errorMessage={error}
          isInvalid={Boolean(error)}
        />
      )}
    </>
  );
}

/** An OpenID Connect provider: where it is and how the console is known to it. */
function OidcFields({ bind, secretStored }: { bind: Bind; secretStored: boolean }) {
  return (
    <>
      <TextField
        label={t('identityProviders.form.issuerUrl')}
        name="configuration.issuerUrl"
        {...bind('issuerUrl')}
        isRequired
        description={t('identityProviders.form.issuerUrlHint')}
      />
      <TextField
        label={t('identityProviders.form.clientId')}
        name="configuration.clientId"
        {...bind('clientId')}
        isRequired
      />
      <TextField
        label={t('identityProviders.form.clientSecret')}
        name="configuration.clientSecret"
        type="password"
        autoComplete="off"
        {...bind('clientSecret')}
        description={secretStored ? t('identityProviders.form.secretStored') : t('identityProviders.form.publicClient')}
      />
      <TextField
        label={t('identityProviders.form.scopes')}
        name="configuration.scopes"
        {...bind('scopes')}
        description={t('identityProviders.form.scopesHint')}
      />
      <TextField
        label={t('identityProviders.form.emailVerifiedClaim')}
        name="configuration.claims.emailVerified"
        {...bind('emailVerifiedClaim')}
        description={t('identityProviders.form.emailVerifiedClaimHint')}
      />
    </>
  );
}

/** A SAML 2.0 provider: its metadata, by URL or pasted, and the console's entity id. */
function SamlFields({ bind }: { bind: Bind }) {
  return (
    <>
      <TextField
        label={t('identityProviders.form.metadataUrl')}
        name="configuration.metadataUrl"
        {...bind('metadataUrl')}
      />
      <TextArea
        label={t('identityProviders.form.metadataXml')}
        name="configuration.metadataXml"
        {...bind('metadataXml')}
        description={t('identityProviders.form.metadataXmlHint')}
        rows={6}
      />
      <TextField label={t('identityProviders.form.entityId')} name="configuration.entityId" {...bind('entityId')} />
    </>
  );
}
