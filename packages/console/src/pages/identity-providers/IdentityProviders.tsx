import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Section } from '../../ui/Section.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { useAction } from '../../ui/use-action.ts';
import { ProviderForm } from './ProviderForm.tsx';

/*
 * Identity providers, support staff only: the list, one provider with its redirect URI and
 * a Test of its set-up, and the add / edit form (OIDC or SAML; global, or for one business or group).
 */

const scopeText = (p: { businessId: string | null; groupId: string | null }) =>
  p.businessId ? 'One business' : p.groupId ? 'One group' : 'Global';

export function IdentityProviderList() {
  const query = useQuery((signal) => rpc('identityProviders', 'list', {}, { signal }), ['identityProviders', 'list']);
  const notice = useFlashNotice();
  return (
    <Page
      title="Identity Providers"
      lead="Single sign-on: users given a provider sign in there instead of with a password."
      actions={
        <Link href="/identityProviders/add" variant="primary-button">
          Add identity provider
        </Link>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>
        {({ identityProviders }) => (
          <Table aria-label="Identity providers">
            <TableHeader>
              <Column isRowHeader>Name</Column>
              <Column>Type</Column>
              <Column>For</Column>
            </TableHeader>
            <TableBody items={identityProviders} emptyText="No identity providers yet">
              {(p) => (
                <Row id={p.id}>
                  <Cell>
                    <Link href={`/identityProviders/${p.id}`}>{p.name}</Link>
                  </Cell>
                  <Cell>{p.type}</Cell>
                  <Cell>{scopeText(p)}</Cell>
                </Row>
              )}
            </TableBody>
          </Table>
        )}
      </QueryView>
    </Page>
  );
}

const useProvider = (id: string) =>
  useQuery((signal) => rpc('identityProviders', 'get', { id }, { signal }), ['identityProviders', 'get', id]);

type Provider = RpcOutput<'identityProviders', 'get'>;
type Checks = RpcOutput<'identityProviders', 'test'>;

export function IdentityProviderDetails() {
  const { id = '' } = useParams();
  const query = useProvider(id);
  const navigate = useNavigate();
  const notice = useFlashNotice();
  const [checks, setChecks] = useState<Checks>();
  const test = useAction();
  const [confirming, setConfirming] = useState(false);
  const deletion = useAction();

  const runTest = () => test.run(async () => setChecks(await rpc('identityProviders', 'test', { id })));
  const remove = async () => {
    if (await deletion.run(() => rpc('identityProviders', 'delete', { id }))) {
      navigate('/identityProviders', { state: { notice: 'Identity provider deleted.' } });
    }
  };

  return (
    <QueryView query={query}>
      {(p) => (
        <Page
          title={p.name}
          lead={`${p.type} identity provider · ${scopeText(p)}`}
          actions={
            <>
              <Button onPress={() => void runTest()} isPending={test.pending}>
                Test
              </Button>
              <Link href={`/identityProviders/${p.id}/edit`} variant="primary-button">
                Edit
              </Link>
              <Button variant="danger" onPress={() => setConfirming(true)}>
                Delete
              </Button>
            </>
          }
        >
          {notice && <Banner tone="success">{notice}</Banner>}
          {test.error && <Banner tone="error">{test.error}</Banner>}
          {checks && <TestResult checks={checks} />}
          <ProviderSettings p={p} />
          {p.spMetadata && (
            <Section title="Our service-provider metadata" lead="Give this to the identity provider.">
              <pre className="code-block">{p.spMetadata}</pre>
            </Section>
          )}
          <ConfirmDialog
            title="Delete identity provider?"
            isOpen={confirming}
            onOpenChange={setConfirming}
            cancelLabel="Keep provider"
            confirmLabel="Delete provider"
            onConfirm={() => void remove()}
            isPending={deletion.pending}
            error={deletion.error}
          >
            Its users will have no identity provider, and will need a password to sign in.
          </ConfirmDialog>
        </Page>
      )}
    </QueryView>
  );
}

/** What Test found: each check with its outcome. */
function TestResult({ checks }: { checks: Checks }) {
  return (
    <Section title="Test">
      <Banner tone={checks.ok ? 'success' : 'error'}>
        {checks.ok ? 'The provider is set up correctly.' : 'The provider has problems:'}
      </Banner>
      <ul className="checks">
        {checks.checks.map((c) => (
          <li key={c.check}>
            <strong>
              {c.check}: {c.ok ? 'OK' : 'Problem'}
            </strong>{' '}
            — {c.message}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The provider's connection as set (the secret only as set or not), and where it sends users back. */
function ProviderSettings({ p }: { p: Provider }) {
  return (
    <dl className="details">
      {p.type === 'OIDC' ? (
        <>
          <Item label="Redirect URI to register at the provider" value={p.callbackUrl} />
          <Item label="Issuer URL" value={p.configuration.issuerUrl} />
          <Item label="Client id" value={p.configuration.clientId} />
          <Item label="Client secret" value={p.configuration.clientSecretSet ? 'Set' : 'Not set'} />
          <Item label="Scopes" value={p.configuration.scopes || 'openid email profile'} />
        </>
      ) : (
        <>
          <Item label="Metadata URL" value={p.configuration.metadataUrl || 'Not set'} />
          <Item label="Entity id" value={p.configuration.entityId || 'Not set'} />
          <Item label="Sign-in URL" value={p.configuration.ssoUrl || 'From the metadata'} />
          <Item label="Assertion consumer service URL" value={p.callbackUrl} />
        </>
      )}
      <Item label="Email claim" value={p.configuration.claims.email || 'Standard'} />
    </dl>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div className="details__item">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function AddIdentityProvider() {
  return (
    <Page title="Add Identity Provider">
      <ProviderForm />
    </Page>
  );
}

export function EditIdentityProvider() {
  const { id = '' } = useParams();
  const query = useProvider(id);
  return (
    <Page title="Edit Identity Provider">
      <QueryView query={query}>{(p) => <ProviderForm existing={p} />}</QueryView>
    </Page>
  );
}
