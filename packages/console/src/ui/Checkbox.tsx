import type { ReactNode } from 'react';
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';
import { classes, Described } from './field-parts.tsx';

export type CheckboxProps = Omit<AriaCheckboxProps, 'children'> & { children: ReactNode; description?: ReactNode };

/** A checkbox with its label (the children) and an optional description. */
export function Checkbox({ children, description, className, ...props }: CheckboxProps) {
  return (
    <Described className="checkbox-field" description={description}>
      <AriaCheckbox {...props} className={classes('checkbox', className)}>
        <span className="checkbox__box" aria-hidden="true">
          <svg viewBox="0 0 18 18" focusable="false" aria-hidden="true">
            <polyline points="3.5 9.5 7.5 13 14.5 5" />
          </svg>
        </span>
        {children}
      </AriaCheckbox>
    </Described>
  );
}
