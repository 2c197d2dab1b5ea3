/** The brotli and gzip copies of a web build's text files (scripts/precompress.mjs). */
export function precompress(dir: string): { files: number; before: number; after: number };
