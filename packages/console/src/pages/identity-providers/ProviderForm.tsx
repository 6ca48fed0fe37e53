import type { IdentityProvider } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorsOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { ResourcePicker } from '../users/ResourcePicker.tsx';

/* The add / edit form of an identity provider (issue 22): OIDC or SAML; global, or for one business or group. */

type Scope = 'global' | 'business' | 'group';

export function ProviderForm({ existing }: { existing?: IdentityProvider }) {
  const navigate = useNavigate();
  const c = existing?.configuration;
  const [name, setName] = useState(existing?.name ?? '');
  const [kind, setKind] = useState<'OIDC' | 'SAML'>(existing?.type ?? 'OIDC');
  const [scope, setScope] = useState<Scope>(existing?.businessId ? 'business' : existing?.groupId ? 'group' : 'global');
  const [resource, setResource] = useState<string | null>(existing?.businessId ?? existing?.groupId ?? null);
  const [issuerUrl, setIssuerUrl] = useState(c?.issuerUrl ?? '');
  const [clientId, setClientId] = useState(c?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [scopes, setScopes] = useState(c?.scopes ?? '');
  const [metadataUrl, setMetadataUrl] = useState(c?.metadataUrl ?? '');
  const [metadataXml, setMetadataXml] = useState(c?.metadataXml ?? '');
  const [entityId, setEntityId] = useState(c?.entityId ?? '');
  const [emailClaim, setEmailClaim] = useState(c?.claims.email ?? '');
  const [emailVerifiedClaim, setEmailVerifiedClaim] = useState(c?.claims.emailVerified ?? '');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = async () => {
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    const input = {
      name,
      type: kind,
      businessId: scope === 'business' ? resource : null,
      groupId: scope === 'group' ? resource : null,
      configuration:
        kind === 'OIDC'
          ? {
              issuerUrl,
              clientId,
              clientSecret,
              scopes,
              claims: { email: emailClaim, emailVerified: emailVerifiedClaim },
            }
          : { metadataUrl, metadataXml, entityId, claims: { email: emailClaim } },
    };
    try {
      const saved = existing
        ? await rpc('identityProviders', 'update', { ...input, id: existing.id })
        : await rpc('identityProviders', 'create', input);
      navigate(`/identityProviders/${saved.id}`, { state: { notice: 'Identity provider saved.' } });
    } catch (e) {
      setPending(false);
      const { fields, form } = errorsOf(e);
      setFieldErrors(fields);
      setError(form);
    }
  };

  return (
    <Form
      className="form--page"
      error={error}
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
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
      <Select
        label="For"
        name="scope"
        selectedKey={scope}
        onSelectionChange={(key) => {
          if (key === null) return;
          setScope(key as Scope);
          setResource(null);
        }}
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
          onChange={(r) => setResource(r?.id ?? null)}
          errorMessage={fieldErrors.businessId ?? fieldErrors.groupId}
          isInvalid={Boolean(fieldErrors.businessId ?? fieldErrors.groupId)}
        />
      )}
      {kind === 'OIDC' ? (
        <>
          <TextField
            label="Issuer URL"
            name="configuration.issuerUrl"
            value={issuerUrl}
            onChange={setIssuerUrl}
            isRequired
            description="e.g. https://login.microsoftonline.com/{tenant}/v2.0"
          />
          <TextField
            label="Client id"
            name="configuration.clientId"
            value={clientId}
            onChange={setClientId}
            isRequired
          />
          <TextField
            label="Client secret"
            name="configuration.clientSecret"
            type="password"
            autoComplete="off"
            value={clientSecret}
            onChange={setClientSecret}
            description={
              c?.clientSecretSet ? 'A secret is stored. Leave empty to keep it.' : 'Leave empty for a public client.'
            }
          />
          <TextField
            label="Scopes"
            name="configuration.scopes"
            value={scopes}
            onChange={setScopes}
            description="Empty: openid email profile"
          />
          <TextField
            label="Email verified claim"
            name="configuration.claims.emailVerified"
            value={emailVerifiedClaim}
            onChange={setEmailVerifiedClaim}
            description="Empty: email_verified (Entra ID: xms_edov)"
          />
        </>
      ) : (
        <>
          <TextField
            label="Metadata URL"
            name="configuration.metadataUrl"
            value={metadataUrl}
            onChange={setMetadataUrl}
          />
          <TextArea
            label="Metadata XML"
            name="configuration.metadataXml"
            value={metadataXml}
            onChange={setMetadataXml}
            description="Instead of a metadata URL"
            rows={6}
          />
          <TextField label="Entity id" name="configuration.entityId" value={entityId} onChange={setEntityId} />
        </>
      )}
      <TextField
        label="Email claim"
        name="configuration.claims.email"
        value={emailClaim}
        onChange={setEmailClaim}
        description="Empty: email"
      />
      <FormActions>
        <Link href={existing ? `/identityProviders/${existing.id}` : '/identityProviders'} variant="button">
          Cancel
        </Link>
        <Button type="submit" variant="primary" isPending={pending}>
          Save
        </Button>
      </FormActions>
    </Form>
  );
}
