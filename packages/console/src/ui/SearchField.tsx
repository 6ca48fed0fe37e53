import {
  Button as AriaButton,
  SearchField as AriaSearchField,
  type SearchFieldProps as AriaSearchFieldProps,
  Input,
  Label,
} from 'react-aria-components';
import { t } from './i18n/index.ts';

export type SearchFieldProps = AriaSearchFieldProps & { label: string; placeholder?: string };

/** A search box with a clear button; Escape clears it. */
export function SearchField({ label, placeholder, className, ...props }: SearchFieldProps) {
  return (
    <AriaSearchField {...props} className={['field', 'search-field', className].filter(Boolean).join(' ')}>
      <Label className="field__label">{label}</Label>
      <div className="search-field__box">
        <Input className="field__input" placeholder={placeholder} />
        <AriaButton className="search-field__clear" aria-label={t('ui.clearSearch')}>
          ×
        </AriaButton>
      </div>
    </AriaSearchField>
  );
}
