import type { ReactElement, ReactNode } from 'react';
import { Tooltip as AriaTooltip, OverlayArrow, TooltipTrigger } from 'react-aria-components';

export type TooltipProps = {
  content: ReactNode;
  children: ReactElement;
  placement?: 'top' | 'bottom' | 'start' | 'end';
};

/** A short hint shown on hover or keyboard focus of its child (which must be focusable, e.g. a Button). */
export function Tooltip({ content, children, placement = 'top' }: TooltipProps) {
  return (
    <TooltipTrigger delay={400}>
      {children}
      <AriaTooltip className="tooltip" placement={placement} offset={8}>
        <OverlayArrow className="tooltip__arrow">
          <svg className="tooltip__arrow-shape" width={8} height={8} viewBox="0 0 8 8" aria-hidden="true">
            <path d="M0 0 L4 4 L8 0" />
          </svg>
        </OverlayArrow>
        {content}
      </AriaTooltip>
    </TooltipTrigger>
  );
}
