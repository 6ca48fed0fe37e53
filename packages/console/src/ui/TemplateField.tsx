import type { ReactNode } from 'react';
import { Button } from './Button.tsx';
import { t } from './i18n/index.ts';
import { TextArea } from './TextArea.tsx';

/**
 * A message template's text, with 'Use the default wording' once it differs from the default, and
 * whatever the page shows under it (an SMS preview).
 */
export function TemplateField({
  label,
  name,
  value,
  defaultValue,
  onChange,
  isDisabled,
  children,
}: {
  label: string;
  name: string;
  value: string;
  defaultValue: string;
  onChange: (value: string) => void;
  isDisabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="sms-template">
      <TextArea label={label} name={name} value={value} onChange={onChange} rows={3} isDisabled={isDisabled} />
      {!isDisabled && value !== defaultValue && (
        <Button variant="quiet" onPress={() => onChange(defaultValue)}>
          {t('ui.template.useDefault')}
        </Button>
      )}
      {children}
    </div>
  );
}
