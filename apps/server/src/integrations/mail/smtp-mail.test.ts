import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { fixedClock } from '../../lib/clock';
import { createTestDatabase } from '../../test/db-template';
import { createSmtpMail } from './smtp-mail';

/** The smallest SMTP server that accepts mail: enough to prove real SMTP is spoken, on loopback. */
function smtpSink(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += String(chunk);
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data) {
          if (line === '.') {
            data = false;
            socket.write('250 queued\r\n');
          } else messages[messages.length - 1] += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 sink\r\n');
        else if (verb === 'DATA') {
          data = true;
          messages.push('');
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port, messages }),
    ),
  );
}

describe('SMTP mail', () => {
  let database: Database;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    sink = await smtpSink();
  });
  afterAll(async () => {
    sink.server.close();
    await database.close();
  });

  it('sends through SMTP_URL and logs the message as sent', async () => {
    const mail = createSmtpMail(database, fixedClock('2026-11-22T12:00:00Z'), {
      url: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true`,
      from: 'Back Office <bo@example.com>',
    });
    const { id } = await mail.send({
      to: 'owner@shop.example.com',
      subject: 'Sign your contract',
      html: '<p>hi</p>',
      text: 'hi',
      template: 'contract_sign_link',
    });
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toContain('Subject: Sign your contract');
    const rows = await database.query<{ status: string; template: string }>(
      `select status, template from mail_log where id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ status: 'sent', template: 'contract_sign_link' });
  });

  it('logs a failed send with its error and tells the caller', async () => {
    const mail = createSmtpMail(database, fixedClock('2026-11-22T12:00:00Z'), {
      url: 'smtp://127.0.0.1:1?connectionTimeout=500',
      from: 'bo@example.com',
    });
    await expect(
      mail.send({ to: 'x@example.com', subject: 's', html: 'h', text: 't', template: 'payment_update_link' }),
    ).rejects.toThrow();
    const rows = await database.query<{ status: string; error: string }>(
      `select status, error from mail_log order by id desc limit 1`,
    );
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.error).toMatch(/ECONNREFUSED|connect/i);
  });
});
