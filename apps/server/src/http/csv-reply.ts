import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ServiceCtx } from '../context';
import { contentDisposition } from './content-disposition';

/**
 * A list's or a report's CSV download: `{name}-{YYYY-MM-DD}.csv` (the injected clock's UTC day), never cached, the
 * body streamed (decision 050). A stream with a non-JSON type bypasses the route's JSON response schema, which each
 * such route says in its summary.
 */
export function sendCsv(reply: FastifyReply, ctx: ServiceCtx, name: string, stream: Readable): FastifyReply {
  const day = ctx.app.clock.now().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', contentDisposition(`${name}-${day}.csv`))
    .header('cache-control', 'no-store')
    .send(stream as never);
}
