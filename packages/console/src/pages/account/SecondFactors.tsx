import { formatDateTime, type SecondFactor } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { TitledSection } from '../../ui/Section.tsx';
import { ActionCell, ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { AddAuthenticatorApp, AddPasskey, RecoveryCodes } from './AddSecondFactor.tsx';
import { t } from './i18n/index.ts';

export const secondFactorsKey = ['auth', 'listSecondFactors', 'me'] as const;

/** A factor's kind as the table names it. */
const kindName = (kind: SecondFactor['kind']) => t(`account.factors.${kind}`);

/**
 * The signed-in user's second factors (docs/SECURITY.md "Second factor"): passkeys and authenticator apps,
 * each with its name and last use, removable (not the last while policy requires one), and the recovery
 * codes left, with New recovery codes. `onAdded` runs after a factor is added (the set-up screen moves on).
 */
export function SecondFactorsSection({ onAdded }: { onAdded?: () => void }) {
  const query = useRpcQuery(secondFactorsKey, {});
  const [adding, setAdding] = useState<'totp' | 'passkey' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<SecondFactor | null>(null);
  const [renewing, setRenewing] = useState(false);
  const [notice, setNotice] = useState<string>();
  const data = query.data;

  const added = (recoveryCodes: string[] | null) => {
    setAdding(null);
    setNotice(t('account.factors.added'));
    setCodes(recoveryCodes);
    query.reload();
    if (!recoveryCodes) onAdded?.();
  };

  return (
    <TitledSection
      id="second-factor-title"
      title={t('account.factors.title')}
      actions={
        adding === null &&
        codes === null && (
          <>
            <Button onPress={() => setAdding('passkey')}>{t('account.factors.addPasskey')}</Button>
            <Button onPress={() => setAdding('totp')}>{t('account.factors.addApp')}</Button>
          </>
        )
      }
    >
      <p className="muted">{data?.required ? t('account.factors.required') : t('account.factors.optional')}</p>
      {notice && <Banner tone="success">{notice}</Banner>}
      {codes && (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            onAdded?.();
          }}
        />
      )}
      {adding === 'totp' && <AddAuthenticatorApp onAdded={added} onCancel={() => setAdding(null)} />}
      {adding === 'passkey' && <AddPasskey onAdded={added} onCancel={() => setAdding(null)} />}
      <QueryView query={query}>
        {({ factors, recoveryCodesLeft }) => (
          <>
            <FactorsTable factors={factors} onRemove={setRemoving} />
            {factors.length > 0 && (
              <p>
                {t('account.factors.codesLeft', { count: recoveryCodesLeft })}{' '}
                <Button variant="quiet" onPress={() => setRenewing(true)}>
                  {t('account.factors.newCodes')}
                </Button>
              </p>
            )}
          </>
        )}
      </QueryView>
      <FactorConfirms
        removing={removing}
        renewing={renewing}
        onRemoved={(name) => {
          setRemoving(null);
          setNotice(t('account.factors.removed', { name }));
          query.reload();
        }}
        onRenewed={(recoveryCodes) => {
          setRenewing(false);
          setCodes(recoveryCodes);
          query.reload();
        }}
        onCancel={() => void [setRemoving(null), setRenewing(false)]}
      />
    </TitledSection>
  );
}

function FactorsTable({ factors, onRemove }: { factors: SecondFactor[]; onRemove: (f: SecondFactor) => void }) {
  return (
    <Table aria-labelledby="second-factor-title">
      <TableHeader>
        <Column isRowHeader>{t('account.factors.name')}</Column>
        <Column>{t('account.factors.kind')}</Column>
        <Column>{t('account.factors.created')}</Column>
        <Column>{t('account.factors.lastUsed')}</Column>
        <ActionsColumn />
      </TableHeader>
      <TableBody items={factors} emptyText={t('account.factors.empty')}>
        {(factor) => (
          <Row id={factor.id}>
            <Cell>{factor.name}</Cell>
            <Cell>{kindName(factor.kind)}</Cell>
            <Cell>{formatDateTime(factor.created)}</Cell>
            <Cell>{factor.lastUsed === null ? t('account.factors.never') : formatDateTime(factor.lastUsed)}</Cell>
            <ActionCell
              label={t('account.factors.removeLabel', { name: factor.name })}
              onPress={() => onRemove(factor)}
            >
              {t('account.factors.remove')}
            </ActionCell>
          </Row>
        )}
      </TableBody>
    </Table>
  );
}

/** Remove second factor? and New recovery codes? */
function FactorConfirms({
  removing,
  renewing,
  onRemoved,
  onRenewed,
  onCancel,
}: {
  removing: SecondFactor | null;
  renewing: boolean;
  onRemoved: (name: string) => void;
  onRenewed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  let renewed: string[] = [];
  if (removing) {
    return (
      <ConfirmAction
        title={t('account.factors.removeTitle')}
        cancelLabel={t('account.factors.keep')}
        confirmLabel={t('account.factors.remove')}
        action={() => rpc('auth', 'removeSecondFactor', { id: removing.id })}
        onDone={() => onRemoved(removing.name)}
        onCancel={onCancel}
      >
        <p>{t('account.factors.removeBody', { name: removing.name })}</p>
      </ConfirmAction>
    );
  }
  if (!renewing) return null;
  return (
    <ConfirmAction
      title={t('account.factors.renewTitle')}
      cancelLabel={t('account.factors.keepCodes')}
      confirmLabel={t('account.factors.renew')}
      action={async () => {
        renewed = (await rpc('auth', 'regenerateRecoveryCodes', {})).recoveryCodes;
      }}
      onDone={() => onRenewed(renewed)}
      onCancel={onCancel}
    >
      <p>{t('account.factors.renewBody')}</p>
    </ConfirmAction>
  );
}
