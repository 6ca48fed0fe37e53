import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Section } from '../../ui/Section.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';
import { ProviderForm } from './ProviderForm.tsx';

/*
 * Identity providers, support staff only: the list, one provider with its redirect URI and
 * a Test of its set-up, and the add / edit form (OIDC or SAML; global, or for one business or group).
 */

const scopeText = (p: { businessId: string | null; groupId: string | null }) =>
  t(
    p.businessId
      ? 'identityProviders.scope.business'
      : p.groupId
        ? 'identityProviders.scope.group'
        : 'identityProviders.scope.global',
  );

export function IdentityProviderList() {
  const query = useRpcQuery(['identityProviders', 'list'], {});
  const notice = useFlashNotice();
  return (
    <Page
      title={t('identityProviders.list.title')}
      lead={t('identityProviders.list.lead')}
      actions={
        <Link href="/identityProviders/add" variant="primary-button">
          {t('identityProviders.list.add')}
        </Link>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>
        {({ identityProviders }) => (
          <Table aria-label={t('identityProviders.list.label')}>
            <TableHeader>
              <Column isRowHeader>{t('identityProviders.list.name')}</Column>
              <Column>{t('identityProviders.list.type')}</Column>
              <Column>{t('identityProviders.list.for')}</Column>
            </TableHeader>
            <TableBody items={identityProviders} emptyText={t('identityProviders.list.empty')}>
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

const useProvider = (id: string) => useRpcQuery(['identityProviders', 'get', id], { id });

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
      navigate('/identityProviders', { state: { notice: t('identityProviders.details.deleted') } });
    }
  };

  return (
    <QueryView query={query}>
      {(p) => (
        <Page
          title={p.name}
          lead={t('identityProviders.details.lead', { type: p.type, scope: scopeText(p) })}
          actions={
            <>
              <Button onPress={() => void runTest()} isPending={test.pending}>
                {t('identityProviders.details.test')}
              </Button>
              <Link href={`/identityProviders/${p.id}/edit`} variant="primary-button">
                {t('identityProviders.details.edit')}
              </Link>
              <Button variant="danger" onPress={() => setConfirming(true)}>
                {t('identityProviders.details.delete')}
              </Button>
            </>
          }
        >
          {notice && <Banner tone="success">{notice}</Banner>}
          {test.error && <Banner tone="error">{test.error}</Banner>}
          {checks && <TestResult checks={checks} />}
          <ProviderSettings p={p} />
          {p.spMetadata && (
            <Section
              title={t('identityProviders.details.spMetadata')}
              lead={t('identityProviders.details.spMetadataLead')}
            >
              <pre className="code-block">{p.spMetadata}</pre>
            </Section>
          )}
          <ConfirmDialog
            title={t('identityProviders.details.deleteTitle')}
            isOpen={confirming}
            onOpenChange={setConfirming}
            cancelLabel={t('identityProviders.details.keep')}
            confirmLabel={t('identityProviders.details.deleteConfirm')}
            onConfirm={() => void remove()}
            isPending={deletion.pending}
            error={deletion.error}
          >
            {t('identityProviders.details.deleteBody')}
          </ConfirmDialog>
        </Page>
      )}
    </QueryView>
  );
}

/** What Test found: each check with its outcome. */
function TestResult({ checks }: { checks: Checks }) {
  return (
    <Section title={t('identityProviders.test.title')}>
      <Banner tone={checks.ok ? 'success' : 'error'}>
        {checks.ok ? t('identityProviders.test.ok') : t('identityProviders.test.problems')}
      </Banner>
      <ul className="checks">
        {checks.checks.map((c) => (
          <li key={c.check}>
            <strong>
              {t(c.ok ? 'identityProviders.test.checkOk' : 'identityProviders.test.checkProblem', { check: c.check })}
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
          <DetailsItem term={t('identityProviders.settings.redirectUri')}>{p.callbackUrl}</DetailsItem>
          <DetailsItem term={t('identityProviders.settings.issuerUrl')}>{p.configuration.issuerUrl}</DetailsItem>
          <DetailsItem term={t('identityProviders.settings.clientId')}>{p.configuration.clientId}</DetailsItem>
          <DetailsItem term={t('identityProviders.settings.clientSecret')}>
            {p.configuration.clientSecretSet
              ? t('identityProviders.settings.set')
              : t('identityProviders.settings.notSet')}
          </DetailsItem>
          <DetailsItem term={t('identityProviders.settings.scopes')}>
            {p.configuration.scopes || t('identityProviders.settings.defaultScopes')}
          </DetailsItem>
        </>
      ) : (
        <>
          <DetailsItem term={t('identityProviders.settings.metadataUrl')}>
            {p.configuration.metadataUrl || t('identityProviders.settings.notSet')}
          </DetailsItem>
          <DetailsItem term={t('identityProviders.settings.entityId')}>
            {p.configuration.entityId || t('identityProviders.settings.notSet')}
          </DetailsItem>
          <DetailsItem term={t('identityProviders.settings.ssoUrl')}>
            {p.configuration.ssoUrl || t('identityProviders.settings.fromMetadata')}
          </DetailsItem>
          <DetailsItem term={t('identityProviders.settings.acsUrl')}>{p.callbackUrl}</DetailsItem>
        </>
      )}
      <DetailsItem term={t('identityProviders.settings.emailClaim')}>
        {p.configuration.claims.email || t('identityProviders.settings.standard')}
      </DetailsItem>
    </dl>
  );
}

export function AddIdentityProvider() {
  return (
    <Page title={t('identityProviders.add.title')}>
      <ProviderForm />
    </Page>
  );
}

export function EditIdentityProvider() {
  const { id = '' } = useParams();
  const query = useProvider(id);
  return (
    <Page title={t('identityProviders.edit.title')}>
      <QueryView query={query}>{(p) => <ProviderForm existing={p} />}</QueryView>
    </Page>
  );
}
