import type { ReactNode } from 'react';
import {
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  FieldError,
  Input,
  Label,
  Text,
  type ValidationResult,
} from 'react-aria-components';

export type TextFieldProps = AriaTextFieldProps & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string | ((validation: ValidationResult) => string);
  placeholder?: string;
};

/** A labelled text input with an optional description and its error message beneath. */
export function TextField({ label, description, errorMessage, placeholder, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} className={['field', className].filter(Boolean).join(' ')}>
      <Label className="field__label">{label}</Label>
      <Input className="field__input" placeholder={placeholder} />
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
