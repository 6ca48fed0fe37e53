import { Input, type ValidationResult } from 'react-aria-components';
import { TextFieldFrame, type TextFieldFrameProps } from './field-parts.tsx';

export type TextFieldProps = TextFieldFrameProps & {
  errorMessage?: string | ((validation: ValidationResult) => string);
  placeholder?: string;
};

/** A labelled text input with an optional description and its error message beneath. */
export function TextField({ placeholder, ...props }: TextFieldProps) {
  return (
    <TextFieldFrame {...props}>
      <Input className="field__input" placeholder={placeholder} />
    </TextFieldFrame>
  );
}
