// biome-ignore-all lint/a11y/useSemanticElements: a virtualised table places its rows absolutely, which native table layout cannot do; ARIA table roles keep the semantics
// biome-ignore-all lint/a11y/useFocusableInteractive: rows and cells of a read-only table are not widgets; their links are focusable
import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, isValidElement, type ReactNode, useEffect, useRef, useSyncExternalStore } from 'react';
import { Button } from './Button.tsx';
import { t } from './i18n/index.ts';

export type VirtualColumn<T> = {
  key: string;
  header: string;
  /** CSS grid track, e.g. '2fr' or '12rem'. */
  width?: string;
  render: (item: T) => ReactNode;
  /** The header as a control (a sort button); `header` stays its name (cards, tooltips). */
  headerCell?: ReactNode;
  /** A sortable column's order now (aria-sort). */
  sort?: 'ascending' | 'descending' | 'none';
};

export type VirtualListProps<T> = {
  /** Names the table for screen readers, e.g. 'Support users'. */
  label: string;
  columns: VirtualColumn<T>[];
  items: T[];
  rowKey: (item: T) => string;
  /** More pages exist: scrolling near the end calls onLoadMore. */
  hasMore: boolean;
  isLoading: boolean;
  onLoadMore: () => void;
  emptyText: string;
  rowHeight?: number;
  overscan?: number;
};

/**
 * The narrowest the columns can be: each track's least width ('12rem', 'minmax(8rem, 1fr)'; '1fr'
 * counts nothing) with the 1rem gaps and the row's 1rem padding either side. A table in a narrower
 * box scrolls sideways inside it rather than cutting its last columns off (or widening the page).
 */
export function leastWidth(widths: readonly (string | undefined)[]): string {
  const least = widths.reduce((sum, width) => {
    const rem = /^(?:minmax\(\s*)?(\d+(?:\.\d+)?)rem\b/.exec((width ?? '').trim());
    return sum + (rem ? Number(rem[1]) : 0);
  }, 0);
  return `${least + Math.max(widths.length - 1, 0) + 2}rem`;
}

/** The text a cell shows when it is text, or elements around text (a link, a span); else ''. */
export function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement(node)) return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

/** Below this width (Bootstrap's `sm`) a list's rows become cards: each cell under its column's name. */
export const cardsQuery = '(max-width: 575.98px)';

function useMatches(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * A long list as a table whose rows are rendered only near the viewport (@tanstack/react-virtual),
 * paging in the next page (nextToken) when the user scrolls near the end. Screen readers get the
 * table semantics with the loaded row count and each row's index. On a phone (< 576 px) the rows
 * reflow into cards, each value under its column's name. When more pages exist, a footer says how
 * many rows are shown and offers Show more (for keyboards and screen readers, which do not scroll);
 * when everything fits on one page there is no footer.
 */
export function VirtualList<T>({
  label,
  columns,
  items,
  rowKey,
  hasMore,
  isLoading,
  onLoadMore,
  emptyText,
  rowHeight = 48,
  overscan = 5,
}: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const cards = useMatches(cardsQuery);
  const count = items.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    // Cards are as tall as their content: estimated per column, then measured.
    estimateSize: () => (cards ? columns.length * 26 + 24 : rowHeight),
    overscan,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const last = virtualRows[virtualRows.length - 1];

  useEffect(() => {
    if (last && last.index >= items.length - 1 && hasMore && !isLoading) onLoadMore();
  }, [last, items.length, hasMore, isLoading, onLoadMore]);

  const template = columns.map((c) => c.width ?? '1fr').join(' ');
  const minWidth = cards ? undefined : leastWidth(columns.map((c) => c.width));

  if (items.length === 0 && !hasMore) return <EmptyList isLoading={isLoading} text={emptyText} />;

  return (
    // The box scrolls sideways; the table inside it holds rows only (Show more is outside it).
    <div className={cards ? 'vlist vlist--cards' : 'vlist'}>
      <div role="table" aria-label={label} aria-rowcount={items.length + 1} aria-busy={isLoading}>
        <HeaderRow columns={columns} template={template} minWidth={minWidth} />
        <div
          ref={scrollRef}
          className="vlist__scroll"
          role="rowgroup"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, and a keyboard must reach it to scroll rows that hold nothing focusable (the audit trail, jobs).
          tabIndex={0}
          style={{ height: virtualizer.getTotalSize() + 2, minWidth }}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualRows.map((row) => {
              const item = items[row.index];
              const style = cards
                ? { transform: `translateY(${row.start}px)` }
                : { gridTemplateColumns: template, height: row.size, transform: `translateY(${row.start}px)` };
              return item === undefined ? (
                <div key="loading" className="vlist__row vlist__row--loading" style={style} role="row">
                  <div role="cell">{t('ui.loadingMore')}</div>
                </div>
              ) : (
                <ItemRow
                  key={rowKey(item)}
                  item={item}
                  index={row.index}
                  columns={columns}
                  style={style}
                  cards={cards}
                  measure={cards ? virtualizer.measureElement : undefined}
                />
              );
            })}
          </div>
        </div>
      </div>
      {hasMore && <ShowMore shown={items.length} isLoading={isLoading} onLoadMore={onLoadMore} />}
    </div>
  );
}

/** A list with nothing in it: loading, or its empty text. */
function EmptyList({ isLoading, text }: { isLoading: boolean; text: string }) {
  return isLoading ? (
    <p className="empty" role="status">
      {t('ui.loading')}
    </p>
  ) : (
    <p className="empty">{text}</p>
  );
}

/** The column headers, as the table's first row. */
function HeaderRow<T>({
  columns,
  template,
  minWidth,
}: {
  columns: VirtualColumn<T>[];
  template: string;
  minWidth: string | undefined;
}) {
  return (
    <div className="vlist__header" role="rowgroup" style={{ minWidth }}>
      <div className="vlist__row" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
        {columns.map((c) => (
          <div key={c.key} className="vlist__columnheader" role="columnheader" title={c.header} aria-sort={c.sort}>
            {c.headerCell ?? c.header}
          </div>
        ))}
      </div>
    </div>
  );
}

/** One item's row; as a card (on a phone) each value under its column's name, measured once drawn. */
function ItemRow<T>({
  item,
  index,
  columns,
  style,
  cards,
  measure,
}: {
  item: T;
  index: number;
  columns: VirtualColumn<T>[];
  style: CSSProperties;
  cards: boolean;
  measure?: (element: Element | null) => void;
}) {
  return (
    <div className="vlist__row" role="row" aria-rowindex={index + 2} style={style} data-index={index} ref={measure}>
      {columns.map((c) => {
        const value = c.render(item);
        // Text may be cut to its column: the whole of it shows on hover.
        return (
          <div key={c.key} className="vlist__cell" role="cell" title={textOf(value) || undefined}>
            {cards && c.header ? <span className="vlist__cell-label">{c.header}</span> : null}
            {value}
          </div>
        );
      })}
    </div>
  );
}

/** How many rows are shown, and Show more for keyboards and screen readers, which do not scroll. */
function ShowMore({ shown, isLoading, onLoadMore }: { shown: number; isLoading: boolean; onLoadMore: () => void }) {
  return (
    <div className="vlist__footer">
      <span className="vlist__count">{t('ui.shownCount', { count: shown })}</span>
      <Button onPress={onLoadMore} isDisabled={isLoading}>
        {t('ui.showMore')}
      </Button>
    </div>
  );
}
