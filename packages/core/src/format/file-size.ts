/**
 * A byte count as people read file sizes, in binary units to match the SPEC's '256 KB' for 262144
 * bytes: under 1 KB in bytes ('512 bytes'), under 1 MB in whole KB rounded up ('300 KB', so a file
 * one byte over the limit shows as '257 KB', never '256 KB'), else MB with one decimal ('1.5 MB').
 */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`;
}
