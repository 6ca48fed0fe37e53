/**
 * Saves text as a CSV file the browser downloads, with a UTF-8 byte order mark: without it Excel reads
 * a CSV as Windows-1252 and shows the pound sign of £9.90 as Â£9.90.
 */
export function downloadCsv(name: string, text: string) {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
