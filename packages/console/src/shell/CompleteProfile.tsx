import { useState } from 'react';
import { rpc } from '../api/client.ts';
import { currentUserUpdated, useCurrentUser } from '../state/session.ts';
import { Button } from '../ui/Button.tsx';
import { Form, FormActions } from '../ui/Form.tsx';
import { usePageTitle } from '../ui/Page.tsx';
import { TextField, textFieldsOf } from '../ui/TextField.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { t } from './i18n/index.ts';

/** SPEC §1: a user whose given or family name is blank gives them here before anything else. */
export function CompleteProfile() {
  const user = useCurrentUser();
  const [name, setName] = useState({ givenName: user?.givenName ?? '', familyName: user?.familyName ?? '' });
  const text = textFieldsOf(name, setName);
  const { pending, formProps } = useSubmit();
  usePageTitle(t('shell.profile.title'));
  if (!user) return null;

  return (
    <main className="centered">
      <div className="card card--narrow">
        <h1 className="card__title">{t('shell.profile.title')}</h1>
        <p>{t('shell.profile.lead')}</p>
        <Form
          {...formProps(async () => {
            const { user: updated } = await rpc('users', 'updateUser', { id: user.id, ...name });
            currentUserUpdated(updated);
          })}
        >
          <TextField
            label={t('shell.profile.givenName')}
            isRequired
            autoComplete="given-name"
            autoFocus
            {...text('givenName')}
          />
          <TextField
            label={t('shell.profile.familyName')}
            isRequired
            autoComplete="family-name"
            {...text('familyName')}
          />
          <FormActions>
            <Button type="submit" variant="primary" isPending={pending}>
              {t('shell.profile.save')}
            </Button>
          </FormActions>
        </Form>
      </div>
    </main>
  );
}
