import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has a default for everything a newcomer does not set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemoData).toBe(true);
  });

  it('fails with a readable message naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/DATABASE_URL: must be a postgres/);
    }
  });
});

describe('PUBLIC_URL', () => {
  it('accepts localhost and loopback addresses and refuses other schemes', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:4100/' }).publicUrl).toBe('http://127.0.0.1:4100');
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe('http://localhost:3000');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://example.com' })).toThrow(/PUBLIC_URL/);
  });
});

describe('INVOICE_GST_NUMBER, INVOICE_PST_NUMBERS (decision 149)', () => {
  it('unset or empty: no registration numbers', () => {
    expect(loadConfig({}).invoiceTaxNumbers).toEqual({ gstHst: null, provincial: {} });
    expect(loadConfig({ INVOICE_GST_NUMBER: ' ' }).invoiceTaxNumbers.gstHst).toBeNull();
  });

  it('reads a GST/HST number (spaces dropped) and province=number pairs', () => {
    const c = loadConfig({
      INVOICE_GST_NUMBER: '123456789 rt0001',
      INVOICE_PST_NUMBERS: 'bc=PST-1234-5678, QC=1234567890TQ0001',
    });
    expect(c.invoiceTaxNumbers).toEqual({
      gstHst: '123456789RT0001',
      provincial: { BC: 'PST-1234-5678', QC: '1234567890TQ0001' },
    });
  });

  it('refuses a malformed number, a province without its own sales tax, a province named twice', () => {
    expect(() => loadConfig({ INVOICE_GST_NUMBER: '12345RT0001' })).toThrow(/INVOICE_GST_NUMBER: a GST\/HST number/);
    expect(() => loadConfig({ INVOICE_PST_NUMBERS: 'ON=123' })).toThrow(/INVOICE_PST_NUMBERS: ON has no provincial/);
    expect(() => loadConfig({ INVOICE_PST_NUMBERS: 'BC=1,BC=2' })).toThrow(/BC is named twice/);
    expect(() => loadConfig({ INVOICE_PST_NUMBERS: 'BC' })).toThrow(/not province=number/);
  });
});
