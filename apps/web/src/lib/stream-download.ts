import { api, type QueryParams } from './api';
import { downloadFile } from './download';

/** How far a streamed download is: the lines and bytes read, and the rows the server said are coming. */
export interface StreamProgress {
  /** Data rows read so far (lines after the header). */
  readonly rows: number;
  readonly bytes: number;
  /** The rows to expect (the response's x-total-count), or null when the server did not say. */
  readonly total: number | null;
}

export interface StreamDownloadOptions {
  /** An API path with `{token}` (and other placeholders in `params`). */
  readonly path: string;
  readonly query?: QueryParams;
  readonly fileName: string;
  /** Cancels the download (nothing is saved; the promise rejects with the abort error). */
  readonly signal?: AbortSignal;
  /** Called as chunks arrive (at most every `progressEveryMs`, and once at the end). */
  readonly onProgress?: (progress: StreamProgress) => void;
  readonly progressEveryMs?: number;
}

/**
 * Download a CSV the server streams (decision 130): the body is read chunk by chunk, counting its lines, so a page
 * can show "N of M rows" and a Cancel button while a large export arrives; when it is complete the file is saved
 * (downloadFile). Errors before the body starts are the API's (ApiError, 403 ends the session). Answers what was
 * read.
 */
export async function streamDownload(options: StreamDownloadOptions): Promise<StreamProgress> {
  const response = await api.get<Response>(options.path, {
    query: options.query,
    signal: options.signal,
    responseType: 'response',
  });
  const header = response.headers.get('x-total-count');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  const parts: Uint8Array[] = [];
  let lines = 0;
  let bytes = 0;
  const progress = (): StreamProgress => ({ rows: Math.max(0, lines - 1), bytes, total });
  const every = options.progressEveryMs ?? 100;
  let last = 0;
  if (response.body) {
    const reader = response.body.getReader();
    const abort = () => void reader.cancel().catch(() => undefined);
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        options.signal?.throwIfAborted();
        parts.push(value);
        bytes += value.byteLength;
        for (const byte of value) if (byte === 10) lines++;
        const now = Date.now();
        if (now - last >= every) {
          last = now;
          options.onProgress?.(progress());
        }
      }
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    options.signal?.throwIfAborted();
  }
  const done = progress();
  options.onProgress?.(done);
  downloadFile(options.fileName, new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' }));
  return done;
}
