/** RFC 6266 / 8187: `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (or `inline; …`). */
export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const name = fileName || 'download';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
