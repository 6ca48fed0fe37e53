import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import {
  Button as AriaButton,
  Select as AriaSelect,
  type SelectProps as AriaSelectProps,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
} from 'react-aria-components';
import { classes, FieldHelp } from './field-parts.tsx';
import { useEditedHandler } from './form-edited.ts';

export type SelectOption = { id: Key; label: string };

export type SelectProps = Omit<AriaSelectProps<SelectOption>, 'children'> & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  options: SelectOption[];
};

/** A labelled pick-one list (keyboard: arrows, type-ahead, Enter, Escape). */
export function Select({ label, description, errorMessage, options, className, ...props }: SelectProps) {
  const onSelectionChange = useEditedHandler(props.onSelectionChange);
  return (
    <AriaSelect {...props} onSelectionChange={onSelectionChange} className={classes('field', 'select', className)}>
      <Label className="field__label">{label}</Label>
      <AriaButton className="field__input select__button">
        <SelectValue className="select__value" />
        <span aria-hidden="true" className="select__chevron">
          ▾
        </span>
      </AriaButton>
      <FieldHelp description={description} errorMessage={errorMessage} />
      <Popover className="popover">
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem className="listbox__item" id={option.id} textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
