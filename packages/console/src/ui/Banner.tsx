import type { ReactNode } from 'react';

export type BannerProps = {
  tone?: 'info' | 'success' | 'warning' | 'error';
  title?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
};

/**
 * A message across the page or form. Errors and warnings are announced at once (role=alert);
 * information and success politely (role=status).
 */
export function Banner({ tone = 'info', title, children, action }: BannerProps) {
  const urgent = tone === 'error' || tone === 'warning';
  return (
    <div className={`banner banner--${tone}`} role={urgent ? 'alert' : 'status'}>
      <div className="banner__body">
        {title && <p className="banner__title">{title}</p>}
        <div>{children}</div>
      </div>
      {action && <div className="banner__action">{action}</div>}
    </div>
  );
}
