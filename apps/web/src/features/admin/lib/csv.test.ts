import { describe, expect, it } from 'vitest';
import { makeMail } from '../test-support';
import { csvField, mailCsv, toCsv } from './csv';

describe('CSV export', () => {
  it('quotes fields with commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(-5)).toBe('-5');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@cmd')).toBe("'@cmd");
  });

  it('ends every line with CRLF', () => {
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('a,b\r\n1,x\r\n');
  });

  it('builds one row per message with ISO timestamps and links joined by spaces', () => {
    const csv = mailCsv([
      makeMail({
        id: 3,
        to: 'a@x.example',
        subject: 'Hello, world',
        template: 't',
        status: 'sent',
        created_at: '2026-01-02T03:04:05.000Z',
        sent_at: '2026-01-02T03:04:06.000Z',
        links: ['https://a', 'https://b'],
      }),
      makeMail({ id: 4, to: 'b@x.example', subject: 'No links', template: 't', status: 'failed', links: [] }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Id,To,Subject,Template,Status,Created,Sent,Links',
      '3,a@x.example,"Hello, world",t,sent,2026-01-02T03:04:05.000Z,2026-01-02T03:04:06.000Z,https://a https://b',
      '4,b@x.example,No links,t,failed,2026-03-04T09:05:12.000Z,,',
      '',
    ]);
  });
});
