import type { ReactNode } from 'react';
import {
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  Label,
} from 'react-aria-components';
import { classes, FieldHelp } from './field-parts.tsx';

export type TextAreaProps = AriaTextFieldProps & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  rows?: number;
};

/** A labelled multi-line text input with an optional description and its error message beneath. */
export function TextArea({ label, description, errorMessage, rows = 3, className, ...props }: TextAreaProps) {
  return (
    <AriaTextField {...props} className={classes('field', className)}>
      <Label className="field__label">{label}</Label>
      <AriaTextArea className="field__input field__textarea" rows={rows} />
      <FieldHelp description={description} errorMessage={errorMessage} />
    </AriaTextField>
  );
}
