import { useState } from 'react';
import { TextField as AriaTextField, Input, Label, ToggleButton } from 'react-aria-components';
import { classes, FieldHelp } from './field-parts.tsx';
import { t } from './i18n/index.ts';
import type { TextFieldProps } from './TextField.tsx';

/**
 * A text field for a secret (an API token, a secret key): hidden as it is typed (a password input),
 * with a Show toggle beside it to check what was typed. Browsers are told not to fill or save it.
 */
export function SecretField({
  label,
  description,
  errorMessage,
  className,
  ...props
}: Omit<TextFieldProps, 'label' | 'type'> & { label: string }) {
  const [shown, setShown] = useState(false);
  return (
    <AriaTextField
      autoComplete="new-password"
      {...props}
      type={shown ? 'text' : 'password'}
      className={classes('field', className)}
    >
      <Label className="field__label">{label}</Label>
      <div className="secret-field__box">
        <Input className="field__input" spellCheck={false} />
        <ToggleButton
          className="button button--secondary secret-field__toggle"
          isSelected={shown}
          onChange={setShown}
          isDisabled={props.isDisabled ?? false}
          aria-label={t('ui.secret.showLabel', { label })}
        >
          {t('ui.secret.show')}
        </ToggleButton>
      </div>
      <FieldHelp description={description} errorMessage={errorMessage} />
    </AriaTextField>
  );
}
