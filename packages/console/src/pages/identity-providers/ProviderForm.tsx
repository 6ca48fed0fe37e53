import type { IdentityProvider } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { ResourcePicker } from '../users/ResourcePicker.tsx';
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
      navigate(`/identityProviders/${saved.id}`, { state: { notice: 'Identity provider saved.' } });
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
      <TextField label="Name" name="name" value={name} onChange={setName} isRequired autoFocus />
      {!existing && (
        <Select
          label="Type"
          name="type"
          selectedKey={kind}
          onSelectionChange={(key) => key !== null && setKind(key === 'SAML' ? 'SAML' : 'OIDC')}
          options={[
            { id: 'OIDC', label: 'OpenID Connect' },
            { id: 'SAML', label: 'SAML 2.0' },
          ]}
        />
      )}
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
        label="Email claim"
        name="configuration.claims.email"
        {...bind('emailClaim')}
        description="Empty: email"
      />
    </PageForm>
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
        label="For"
        name="scope"
        selectedKey={scope}
        onSelectionChange={(key) => key !== null && onScope(key as Scope)}
        options={[
          { id: 'global', label: 'Every business (global)' },
          { id: 'business', label: 'One business' },
          { id: 'group', label: 'One group' },
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
        label="Issuer URL"
        name="configuration.issuerUrl"
        {...bind('issuerUrl')}
        isRequired
        description="e.g. https://login.microsoftonline.com/{tenant}/v2.0"
      />
      <TextField label="Client id" name="configuration.clientId" {...bind('clientId')} isRequired />
      <TextField
        label="Client secret"
        name="configuration.clientSecret"
        type="password"
        autoComplete="off"
        {...bind('clientSecret')}
        description={secretStored ? 'A secret is stored. Leave empty to keep it.' : 'Leave empty for a public client.'}
      />
      <TextField
        label="Scopes"
        name="configuration.scopes"
        {...bind('scopes')}
        description="Empty: openid email profile"
      />
      <TextField
        label="Email verified claim"
        name="configuration.claims.emailVerified"
        {...bind('emailVerifiedClaim')}
        description="Empty: email_verified (Entra ID: xms_edov)"
      />
    </>
  );
}

/** A SAML 2.0 provider: its metadata, by URL or pasted, and the console's entity id. */
function SamlFields({ bind }: { bind: Bind }) {
  return (
    <>
      <TextField label="Metadata URL" name="configuration.metadataUrl" {...bind('metadataUrl')} />
      <TextArea
        label="Metadata XML"
        name="configuration.metadataXml"
        {...bind('metadataXml')}
        description="Instead of a metadata URL"
        rows={6}
      />
      <TextField label="Entity id" name="configuration.entityId" {...bind('entityId')} />
    </>
  );
}
