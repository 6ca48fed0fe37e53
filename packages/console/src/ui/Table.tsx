import type { ReactNode } from 'react';
import {
  Cell as AriaCell,
  Column as AriaColumn,
  Row as AriaRow,
  Table as AriaTable,
  TableBody as AriaTableBody,
  TableHeader as AriaTableHeader,
  type CellProps,
  type ColumnProps,
  type RowProps,
  type TableBodyProps,
  type TableHeaderProps,
  type TableProps,
} from 'react-aria-components';
import { Button } from './Button.tsx';
import { t } from './i18n/index.ts';

/** A data table (react-aria: arrow keys move between cells, rows and their links). */
export function Table({ className, ...props }: TableProps) {
  return (
    <div className="table-scroll">
      <AriaTable {...props} className={['table', className].filter(Boolean).join(' ')} />
    </div>
  );
}

export function TableHeader<T extends object>(props: TableHeaderProps<T>) {
  return <AriaTableHeader {...props} className="table__header" />;
}

export function Column(props: ColumnProps & { children: ReactNode }) {
  return <AriaColumn {...props} className="table__column" />;
}

/** The last column, of each row's buttons: named for screen readers only. */
export function ActionsColumn() {
  return (
    <Column>
      <span className="visually-hidden">{t('ui.actions')}</span>
    </Column>
  );
}

/**
 * The cell under `ActionsColumn`: the row's one button (Remove, End, Cancel), named for its row
 * (`label`: 'Remove Work phone') for screen readers; empty where the row offers none (`isOffered`).
 */
export function ActionCell({
  label,
  onPress,
  isOffered = true,
  children,
}: {
  label: string;
  onPress: () => void;
  isOffered?: boolean;
  children: ReactNode;
}) {
  return (
    <Cell>
      {isOffered && (
        <Button variant="quiet" aria-label={label} onPress={onPress}>
          {children}
        </Button>
      )}
    </Cell>
  );
}

export function TableBody<T extends object>({ emptyText, ...props }: TableBodyProps<T> & { emptyText: string }) {
  return (
    <AriaTableBody {...props} className="table__body" renderEmptyState={() => <p className="empty">{emptyText}</p>} />
  );
}

export function Row<T extends object>(props: RowProps<T>) {
  return <AriaRow {...props} className="table__row" />;
}

export function Cell(props: CellProps) {
  return <AriaCell {...props} className="table__cell" />;
}
