import { type Order, orderDisplayStatus } from '@medlocker/core';
import { useContext, useEffect, useState } from 'react';
import {
  ComboBox,
  ComboBoxStateContext,
  Input,
  type Key,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
} from 'react-aria-components';
import { useNavigate } from 'react-router';
import { rpc } from '../api/client.ts';
import { useDebounced, useQuery } from '../api/queries.ts';
import { orderPaths } from '../paths.ts';
import { t } from './i18n/index.ts';

/** SPEC §9: searches wait until typing has paused this long. */
const debounceMs = 500;

/**
 * Whether the text could be a barcode. The rule's schema library loads with the first search rather
 * than with the shell: every page shows this field, few pages need the library.
 */
const couldBeBarcode = async (text: string) => text !== '' && (await import('./barcode-rule.ts')).couldBeBarcode(text);

/**
 * The orders found for what is typed, once typing has paused (or at once for the text Enter asked
 * for), and the words the results list shows while it has none.
 */
function useOrderFinder(text: string, entered: string | null) {
  const debounced = useDebounced(text.trim(), debounceMs);
  const settled = entered !== null && entered === text.trim() ? entered : debounced;
  const query = useQuery(
    // Text no barcode can be (too long) finds nothing: no call that could only be refused. The answer
    // keeps the text it is for, so an earlier search's answer is never shown as this one's.
    async (signal) => ({
      text: settled,
      orders: (await couldBeBarcode(settled))
        ? (await rpc('orders', 'findOrders', { text: settled }, { signal })).orders
        : [],
    }),
    ['orders', 'findOrders', settled],
  );
  const answered = settled !== '' && settled === text.trim() && query.data?.text === settled;
  const failed = Boolean(query.error) && settled === text.trim() && !query.isLoading;
  const emptyText =
    text.trim() === ''
      ? t('shell.orderSearch.typeSomething')
      : failed
        ? t('shell.orderSearch.failed')
        : answered
          ? t('shell.orderSearch.notFound')
          : t('shell.orderSearch.searching');
  return { settled, answered, orders: answered ? (query.data?.orders ?? []) : [], emptyText };
}

/** The orders found: reference, status, patient and business. */
function Results({ emptyText }: { emptyText: string }) {
  return (
    <Popover className="popover popover--order-search" placement="bottom end">
      <ListBox<Order> className="listbox" renderEmptyState={() => <div className="listbox__empty">{emptyText}</div>}>
        {(order) => (
          <ListBoxItem id={order.id} textValue={order.reference} className="listbox__item order-search__item">
            <span className="order-search__ref">{order.reference}</span>
            <span className="order-search__status badge">{orderDisplayStatus(order, Date.now())}</span>
            <span className="listbox__detail">
              {order.patientName} · {order.businessName}
            </span>
          </ListBoxItem>
        )}
      </ListBox>
    </Popover>
  );
}

/**
 * The top bar's order finder: an exact barcode or reference, in any case, answered by
 * orders/findOrders (at most 10, only in the businesses the user reaches: the server filters). Arrows
 * move through the results, Enter or a click opens one; Enter on the typed text opens the first,
 * searching at once if the pause has not passed (a barcode scanner types the code and Enter at once).
 */
export function OrderSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  // The text Enter asked for before the pause ended: searched at once, its first order opened.
  const [entered, setEntered] = useState<string | null>(null);
  // Enter closes the results list; a text Enter found nothing for says so beside the field instead.
  const [notFound, setNotFound] = useState<string | null>(null);
  // Focus stays here after a choice (the next search is typed at once): a screen reader hears which
  // order opened from this live region instead of from the new page's heading taking focus.
  const [opened, setOpened] = useState({ words: '', count: 0 });
  const { settled, answered, orders, emptyText } = useOrderFinder(text, entered);

  const open = (order: Order | undefined) => {
    if (!order) return;
    setText('');
    setEntered(null);
    setOpened((o) => ({
      words: t('shell.orderSearch.opened', { reference: order.reference, business: order.businessName }),
      count: o.count + 1,
    }));
    navigate(orderPaths.order(order.businessId, order.id));
  };

  const first = orders[0];
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens once, when Enter's answer arrives
  useEffect(() => {
    if (entered === null || !answered || settled !== entered) return;
    setEntered(null);
    if (first) open(first);
    else setNotFound(entered);
  }, [answered, entered, settled, first]);

  return (
    <ComboBox
      className="order-search"
      menuTrigger="input"
      allowsCustomValue
      allowsEmptyCollection
      inputValue={text}
      onInputChange={setText}
      selectedKey={null}
      onSelectionChange={(key: Key | null) => open(orders.find((o) => o.id === key))}
      items={orders}
    >
      <Label className="visually-hidden">{t('shell.orderSearch.label')}</Label>
      <Input
        className="field__input order-search__input"
        placeholder={t('shell.orderSearch.placeholder')}
        onKeyDown={(e) => {
          // With no result highlighted, Enter opens the first (an exact barcode is usually one order).
          if (e.key !== 'Enter' || e.currentTarget.getAttribute('aria-activedescendant')) return;
          if (answered && first) open(first);
          else if (answered) setNotFound(settled);
          else if (text.trim() !== '') setEntered(text.trim());
        }}
      />
      {notFound !== null && notFound === text.trim() && (
        <p className="order-search__not-found" role="status">
          {t('shell.orderSearch.notFound')}
        </p>
      )}
      <CloseAfterChoice choices={opened.count} />
      <p className="visually-hidden" role="status">
        {opened.words}
      </p>
      <Results emptyText={emptyText} />
    </ComboBox>
  );
}

/**
 * Closes the results list once an order was opened from it: react-aria closes a combobox's list when its
 * selection changes, and this one's stays empty (the finder clears for the next search). Only while the
 * finder is still empty, so a search already typed keeps its list; the list also has to close for the
 * live region beside it to be heard (an open list hides the rest of the page from screen readers).
 */
function CloseAfterChoice({ choices }: { choices: number }) {
  const state = useContext(ComboBoxStateContext);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per choice, with the state of that render
  useEffect(() => {
    if (choices > 0 && state?.isOpen && state.inputValue === '') state.close();
  }, [choices]);
  return null;
}
