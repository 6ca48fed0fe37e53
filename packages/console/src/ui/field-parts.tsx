import type { ReactNode } from 'react';
import {
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  FieldError,
  type FieldErrorProps,
  Label,
  Text,
} from 'react-aria-components';

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

/** What a text field (one line or several) is given besides react-aria's own props. */
export type TextFieldFrameProps = AriaTextFieldProps & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: FieldErrorProps['children'];
};

/** A text field around its input (`children`: one line or several): the label above, the help beneath. */
export function TextFieldFrame({
  label,
  description,
  errorMessage,
  className,
  children,
  ...props
}: TextFieldFrameProps & { children: ReactNode }) {
  return (
    <AriaTextField {...props} className={classes('field', className)}>
      <Label className="field__label">{label}</Label>
      {children}
      <FieldHelp description={description} errorMessage={errorMessage} />
    </AriaTextField>
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
