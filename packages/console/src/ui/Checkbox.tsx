import type { ReactNode } from 'react';
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps, Text } from 'react-aria-components';

export type CheckboxProps = Omit<AriaCheckboxProps, 'children'> & { children: ReactNode; description?: ReactNode };

/** A checkbox with its label (the children) and an optional description. */
export function Checkbox({ children, description, className, ...props }: CheckboxProps) {
  return (
    <div className="checkbox-field">
      <AriaCheckbox {...props} className={['checkbox', className].filter(Boolean).join(' ')}>
        <span className="checkbox__box" aria-hidden="true">
          <svg viewBox="0 0 18 18" focusable="false" aria-hidden="true">
            <polyline points="3.5 9.5 7.5 13 14.5 5" />
          </svg>
        </span>
        {children}
      </AriaCheckbox>
      {description && <Text className="field__description">{description}</Text>}
    </div>
  );
}
