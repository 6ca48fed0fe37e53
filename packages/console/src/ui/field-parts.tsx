import type { ReactNode } from 'react';
import { FieldError, type FieldErrorProps, Text } from 'react-aria-components';

/**
 * The kit's class names for a field: its own, then the page's (a page passes a string; react-aria's
 * render-function form is not used by pages).
 */
export const classes = (...names: unknown[]) =>
  names.filter((name): name is string => typeof name === 'string' && name !== '').join(' ');

/** What a field shows under its input: its description, then its error message while it is invalid. */
export function FieldHelp({
  description,
  errorMessage,
}: {
  description?: ReactNode;
  errorMessage?: FieldErrorProps['children'];
}) {
  return (
    <>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </>
  );
}

/** A checkbox or switch with the description under it. */
export function Described({
  className,
  description,
  children,
}: {
  className: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      {children}
      {description && <Text className="field__description">{description}</Text>}
    </div>
  );
}
