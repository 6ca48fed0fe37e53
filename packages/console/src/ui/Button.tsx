import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';

export type ButtonProps = AriaButtonProps & {
  /** primary: the one main action of a view; danger: destroys something; quiet: a minor action. */
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
};

/** A button (react-aria: press, keyboard and focus handled alike on every device). */
export function Button({ variant = 'secondary', className, ...props }: ButtonProps) {
  return <AriaButton {...props} className={['button', `button--${variant}`, className].filter(Boolean).join(' ')} />;
}
