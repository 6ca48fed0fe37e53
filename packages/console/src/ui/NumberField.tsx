import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  NumberField as AriaNumberField,
  type NumberFieldProps as AriaNumberFieldProps,
  Group,
  Input,
  Label,
} from 'react-aria-components';
import { classes, FieldHelp } from './field-parts.tsx';

export type NumberFieldProps = AriaNumberFieldProps & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
};

/** A labelled number input with − / + steppers (arrow keys step too). */
export function NumberField({ label, description, errorMessage, className, ...props }: NumberFieldProps) {
  return (
    <AriaNumberField {...props} className={classes('field', 'number-field', className)}>
      <Label className="field__label">{label}</Label>
      <Group className="number-field__group">
        <AriaButton slot="decrement" className="number-field__step">
          −
        </AriaButton>
        <Input className="field__input number-field__input" />
        <AriaButton slot="increment" className="number-field__step">
          +
        </AriaButton>
      </Group>
      <FieldHelp description={description} errorMessage={errorMessage} />
    </AriaNumberField>
  );
}
