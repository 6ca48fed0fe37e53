import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import {
  Button as AriaButton,
  ComboBox as AriaComboBox,
  type ComboBoxProps as AriaComboBoxProps,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  ListBoxLoadMoreItem,
  Popover,
} from 'react-aria-components';
import { classes, FieldHelp } from './field-parts.tsx';
import { useEditedHandler } from './form-edited.ts';
import { t } from './i18n/index.ts';

export type ComboBoxOption = { id: Key; label: string; detail?: string };

export type ComboBoxProps = Omit<AriaComboBoxProps<ComboBoxOption>, 'children' | 'items' | 'defaultItems'> & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  placeholder?: string;
  items: ComboBoxOption[];
  /** Lazy loading: called when the list is scrolled near its end. */
  onLoadMore?: () => void;
  isLoading?: boolean;
  /** Shown in the open list when nothing matches. */
  emptyText?: string;
};

/**
 * A searchable pick-one list: type to filter, arrows to move, Enter to choose, Escape to close.
 * With `onLoadMore` it pages in more options as the list scrolls (the server filters; pass
 * `inputValue`/`onInputChange` and the current `items`).
 */
export function ComboBox({
  label,
  description,
  errorMessage,
  placeholder,
  items,
  onLoadMore,
  isLoading,
  emptyText = t('ui.comboBox.noMatches'),
  className,
  ...props
}: ComboBoxProps) {
  const onSelectionChange = useEditedHandler(props.onSelectionChange);
  return (
    <AriaComboBox
      menuTrigger="focus"
      allowsEmptyCollection
      {...props}
      onSelectionChange={onSelectionChange}
      items={items}
      className={classes('field', 'combobox', className)}
    >
      <Label className="field__label">{label}</Label>
      <div className="combobox__box">
        <Input className="field__input" placeholder={placeholder} />
        <AriaButton className="combobox__button" aria-label={t('ui.comboBox.showOptions')}>
          ▾
        </AriaButton>
      </div>
      <FieldHelp description={description} errorMessage={errorMessage} />
      <Popover className="popover popover--combobox">
        <ListBox
          className="listbox"
          renderEmptyState={() => <div className="listbox__empty">{isLoading ? t('ui.loading') : emptyText}</div>}
        >
          {items.map((item) => (
            <ListBoxItem key={item.id} className="listbox__item" id={item.id} textValue={item.label}>
              <span className="listbox__label">{item.label}</span>
              {item.detail && <span className="listbox__detail">{item.detail}</span>}
            </ListBoxItem>
          ))}
          {onLoadMore && (
            <ListBoxLoadMoreItem className="listbox__more" onLoadMore={onLoadMore} isLoading={isLoading}>
              {t('ui.loadingMore')}
            </ListBoxLoadMoreItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
