import type { FrontEnd } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { t } from './i18n/index.ts';

const NONE = 'none';

export type EditIdentityProviderDialogProps = {
  email: string;
  frontEnd: FrontEnd;
  currentId: string | null;
  onClose: (saved: boolean) => void;
};

/** SPEC §6: choose the user's identity provider (single sign-on), or none to sign in with a password. */
export function EditIdentityProviderDialog({ email, frontEnd, currentId, onClose }: EditIdentityProviderDialogProps) {
  const providers = useRpcQuery(['identityProviders', 'list'], {});
  const [selected, setSelected] = useState<string>(currentId ?? NONE);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const options = [
    { id: NONE, label: t('users.idp.none') },
    ...(providers.data?.identityProviders ?? []).map((p) => ({ id: p.id, label: p.name })),
  ];

  const save = async () => {
    setPending(true);
    setError(undefined);
    try {
      await rpc('auth', 'editIdentityProvider', {
        email,
        identityProviderId: selected === NONE ? null : selected,
        frontEnd,
      });
      onClose(true);
    } catch (e) {
      setError(messageOf(e));
      setPending(false);
    }
  };

  return (
    <Dialog title={t('users.idp.title')} isOpen onOpenChange={(open) => !open && onClose(false)}>
      <div className="dialog__body">
        <Select
          label={t('users.idp.label')}
          options={options}
          selectedKey={selected}
          onSelectionChange={(key) => setSelected(key === null ? NONE : String(key))}
          isDisabled={providers.isLoading}
          description={providers.error ? messageOf(providers.error) : undefined}
        />
      </div>
      <DialogFooter error={error} onCancel={() => onClose(false)} pending={pending}>
        <Button variant="primary" onPress={() => void save()} isPending={pending}>
          {t('users.idp.save')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
