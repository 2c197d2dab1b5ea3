/** Offer `content` as a file download named `fileName` (through a temporary object URL). */
export function downloadFile(fileName: string, content: Blob): void {
  const url = URL.createObjectURL(content);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** 'customers-2026-03-04.csv' (the UTC day). */
export function datedFileName(prefix: string, extension: string, now: Date = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.${extension}`;
}
