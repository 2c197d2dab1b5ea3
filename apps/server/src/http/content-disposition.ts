/** RFC 6266 / 8187: `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded`. */
export function contentDisposition(fileName: string): string {
  const name = fileName || 'download';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
