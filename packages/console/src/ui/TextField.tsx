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

/**
 * A form's text fields bound to its values `f`, one key each: the field's name, its value, its change
 * (the values with that key replaced) and whether it is off (`isDisabled`: an archived business's).
 */
export function textFieldsOf<F>(f: F, onChange: (f: F) => void, isDisabled = false) {
  return <K extends keyof F & string>(key: F[K] extends string ? K : never) => ({
    name: key,
    value: f[key] as string,
    onChange: (value: string) => onChange({ ...f, [key]: value }),
    isDisabled,
  });
}
