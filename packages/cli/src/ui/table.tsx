import { Box, renderToString, Text } from 'ink';

export type Column<Row> = { header: string; value: (row: Row) => string };

function Table<Row>({ rows, columns }: { rows: Row[]; columns: Column<Row>[] }) {
  const widths = columns.map((c) => Math.max(c.header.length, ...rows.map((r) => c.value(r).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return (
    <Box flexDirection="column">
      <Text bold>{line(columns.map((c) => c.header))}</Text>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are rendered once, never reordered.
        <Text key={i}>{line(columns.map((c) => c.value(row)))}</Text>
      ))}
    </Box>
  );
}

/** A plain-text table (header in bold on a colour terminal), rendered once by Ink. */
export function renderTable<Row>(rows: Row[], columns: Column<Row>[]): string {
  return renderToString(<Table rows={rows} columns={columns} />, { columns: 1000 });
}

/** `label: value` lines, aligned. */
export function renderFields(fields: [string, string][]): string {
  const width = Math.max(...fields.map(([k]) => k.length));
  return renderToString(
    <Box flexDirection="column">
      {fields.map(([k, v]) => (
        <Text key={k}>
          <Text bold>{`${k}:`.padEnd(width + 1)}</Text> {v}
        </Text>
      ))}
    </Box>,
    { columns: 1000 },
  );
}
