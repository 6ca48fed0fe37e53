import { isArkErrors, NewPassword } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { t } from './i18n/index.ts';
import { sessionsKey } from './Sessions.tsx';

/**
 * Change password while signed in: the current password (checked under the sign-in limits), the new one
 * (SPEC §5: at least 12 characters) and its confirmation ('Passwords do not match'). Every other session
 * of the user ends; this one stays.
 */
export function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [changed, setChanged] = useState<string>();
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const { fieldErrors, error, pending, onSubmit } = useSubmit((path) => (path === 'newPassword' ? 'password' : path));

  return (
    <section aria-labelledby="password-title">
      <h2 className="section-title" id="password-title">
        {t('account.password.title')}
      </h2>
      {changed && <Banner tone="success">{changed}</Banner>}
      <Form
        guardUnsaved={false}
        error={error}
        validationErrors={{ ...fieldErrors, ...localErrors }}
        onSubmit={onSubmit(async () => {
          setChanged(undefined);
          // Core's SPEC §5 rules first, as the reset form has them.
          const checked = NewPassword({ password, confirmation });
          if (isArkErrors(checked)) {
            setLocalErrors(
              Object.fromEntries(checked.map((e) => [String(e.path.at(-1) ?? 'password'), e.message] as const)),
            );
            return;
          }
          setLocalErrors({});
          const { endedSessions } = await rpc('auth', 'changePassword', {
            currentPassword: current,
            newPassword: password,
          });
          setCurrent('');
          setPassword('');
          setConfirmation('');
          setChanged(
            endedSessions > 0 ? t('account.password.changedEnded', { endedSessions }) : t('account.password.changed'),
          );
          void queryClient.invalidateQueries({ queryKey: sessionsKey(undefined) });
        })}
      >
        <PasswordFields
          current={[current, setCurrent]}
          password={[password, setPassword]}
          confirmation={[confirmation, setConfirmation]}
        />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending}>
            {t('account.password.submit')}
          </Button>
        </FormActions>
      </Form>
    </section>
  );
}

type Value = [string, (value: string) => void];

/** The current password, the new one and its confirmation. */
function PasswordFields({ current, password, confirmation }: { current: Value; password: Value; confirmation: Value }) {
  return (
    <>
      <PasswordField
        label={t('account.password.current')}
        name="currentPassword"
        autoComplete="current-password"
        value={current}
      />
      <PasswordField
        label={t('account.password.new')}
        name="password"
        autoComplete="new-password"
        description={t('account.password.newHint')}
        value={password}
      />
      <PasswordField
        label={t('account.password.confirm')}
        name="confirmation"
        autoComplete="new-password"
        value={confirmation}
      />
    </>
  );
}

function PasswordField({
  value: [value, onChange],
  ...props
}: {
  label: string;
  name: string;
  autoComplete: string;
  description?: string;
  value: Value;
}) {
  return <TextField {...props} type="password" value={value} onChange={onChange} isRequired />;
}
