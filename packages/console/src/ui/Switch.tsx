import type { ReactNode } from 'react';
import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps, Text } from 'react-aria-components';

export type SwitchProps = Omit<AriaSwitchProps, 'children'> & { children: ReactNode; description?: ReactNode };

/** An on/off toggle with its label (the children): 'Show archived', 'Out of order'. */
export function Switch({ children, description, className, ...props }: SwitchProps) {
  return (
    <div className="switch-field">
      <AriaSwitch {...props} className={['switch', className].filter(Boolean).join(' ')}>
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        {children}
      </AriaSwitch>
      {description && <Text className="field__description">{description}</Text>}
    </div>
  );
}
