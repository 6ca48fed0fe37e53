import type { ReactNode } from 'react';
import {
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  FieldError,
  Label,
  Text,
} from 'react-aria-components';

export type TextAreaProps = AriaTextFieldProps & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  rows?: number;
};

/** A labelled multi-line text input with an optional description and its error message beneath. */
export function TextArea({ label, description, errorMessage, rows = 3, className, ...props }: TextAreaProps) {
  return (
    <AriaTextField {...props} className={['field', className].filter(Boolean).join(' ')}>
      <Label className="field__label">{label}</Label>
      <AriaTextArea className="field__input field__textarea" rows={rows} />
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
