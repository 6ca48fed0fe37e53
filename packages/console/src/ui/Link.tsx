import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components';

export type LinkProps = Omit<AriaLinkProps, 'href'> & {
  /** A console path ('/users/123'): navigated by the router, no page load. */
  href: string;
  /** button / primary-button: a link that looks like a button (e.g. Add). */
  variant?: 'inline' | 'button' | 'primary-button';
};

const linkClass = { inline: 'link', button: 'button button--secondary', 'primary-button': 'button button--primary' };

/** A link; console paths go through the router (see the RouterProvider in main.tsx). */
export function Link({ variant = 'inline', className, ...props }: LinkProps) {
  return <AriaLink {...props} className={[linkClass[variant], className].filter(Boolean).join(' ')} />;
}
