import type { ReactNode } from 'react';
import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';
import { classes, Described } from './field-parts.tsx';

export type SwitchProps = Omit<AriaSwitchProps, 'children'> & { children: ReactNode; description?: ReactNode };

/** An on/off toggle with its label (the children): 'Show archived', 'Out of order'. */
export function Switch({ children, description, className, ...props }: SwitchProps) {
  return (
    <Described className="switch-field" description={description}>
      <AriaSwitch {...props} className={classes('switch', className)}>
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        {children}
      </AriaSwitch>
    </Described>
  );
}
