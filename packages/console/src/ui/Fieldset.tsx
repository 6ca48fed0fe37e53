import type { ReactNode } from 'react';
import { classes } from './field-parts.tsx';

/** A group of fields under its legend ('Address', 'Charges'), with an optional line saying what it is for. */
export function Fieldset({
  legend,
  description,
  className,
  children,
}: {
  legend: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={classes('fieldset', className)}>
      <legend className="fieldset__legend">{legend}</legend>
      {description && <p className="field__description">{description}</p>}
      {children}
    </fieldset>
  );
}
