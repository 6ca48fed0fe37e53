import { ProgressBar as AriaProgressBar, Label } from 'react-aria-components';

export type ProgressBarProps = { label: string; value: number; maxValue?: number };

/** A labelled progress bar showing its percentage ('Importing… 42%'). */
export function ProgressBar({ label, value, maxValue = 100 }: ProgressBarProps) {
  return (
    <AriaProgressBar value={value} maxValue={maxValue} className="progress">
      {({ percentage, valueText }) => (
        <>
          <div className="progress__top">
            <Label className="field__label">{label}</Label>
            <span className="progress__value">{valueText}</span>
          </div>
          <div className="progress__track">
            <div className="progress__fill" style={{ width: `${percentage ?? 0}%` }} />
          </div>
        </>
      )}
    </AriaProgressBar>
  );
}
