import { type MonthFigures, monthlyStatsCells, monthlyStatsColumns } from '@medlocker/core';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { t } from './i18n/index.ts';

export type MonthlyTableRow = MonthFigures & { key: string; businessName?: string };

/**
 * Every figure of each month (core's monthly columns, SPEC §9 formatted): the accessible equivalent
 * of the charts, navigable by keyboard (arrow keys between cells). With `withBusiness`, a Business
 * column comes first (the group comparison).
 */
export function MonthlyTable(props: { label: string; rows: readonly MonthlyTableRow[]; withBusiness?: boolean }) {
  const headers = props.withBusiness ? [t('stats.table.business'), ...monthlyStatsColumns] : [...monthlyStatsColumns];
  return (
    <Table aria-label={props.label} className="table--figures">
      <TableHeader>
        {headers.map((h, i) => (
          <Column key={h} id={h} isRowHeader={i === 0}>
            {h}
          </Column>
        ))}
      </TableHeader>
      <TableBody emptyText={t('stats.table.empty')} items={props.rows.map((r) => ({ ...r, id: r.key }))}>
        {(r) => {
          const cells = props.withBusiness ? [r.businessName ?? '', ...monthlyStatsCells(r)] : monthlyStatsCells(r);
          return (
            <Row id={r.key}>
              {cells.map((c, i) => (
                <Cell key={headers[i]}>{c}</Cell>
              ))}
            </Row>
          );
        }}
      </TableBody>
    </Table>
  );
}
