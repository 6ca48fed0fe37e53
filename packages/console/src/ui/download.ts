/** Hands `blob` to the browser as a download named `name`. */
function downloadBlob(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Saves text as a CSV file the browser downloads, with a UTF-8 byte order mark: without it Excel reads
 * a CSV as Windows-1252 and shows the pound sign of £9.90 as Â£9.90.
 */
export function downloadCsv(name: string, text: string) {
  downloadBlob(name, new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
}

/** Saves a file the api sent as base64 (an evidence pack, a patient's data) as the browser's download. */
export function downloadFile(file: { fileName: string; contentType: string; data: string }) {
  const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
  downloadBlob(file.fileName, new Blob([bytes], { type: file.contentType }));
}
