import type { ReactNode } from 'react';
import {
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  Input,
  Label,
  type ValidationResult,
} from 'react-aria-components';
import { classes, FieldHelp } from './field-parts.tsx';

export type TextFieldProps = AriaTextFieldProps & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string | ((validation: ValidationResult) => string);
  placeholder?: string;
};

/** A labelled text input with an optional description and its error message beneath. */
export function TextField({ label, description, errorMessage, placeholder, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} className={classes('field', className)}>
      <Label className="field__label">{label}</Label>
      <Input className="field__input" placeholder={placeholder} />
      <FieldHelp description={description} errorMessage={errorMessage} />
    </AriaTextField>
  );
}
