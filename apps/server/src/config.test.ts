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

describe('CRM order settings (decision 159)', () => {
  it('has local defaults, so npm start needs none', () => {
    expect(loadConfig({}).crmOrder).toEqual({
      organisationId: 'local-crm',
      organisationName: 'Local CRM',
      parentCustomerId: 1,
      requesterTag: 'crm',
      externalOrderMarker: 'CRM',
    });
  });

  it('reads the five variables', () => {
    expect(
      loadConfig({
        CRM_ORGANISATION_ID: 'org-778899',
        CRM_ORGANISATION_NAME: ' Zoho One ',
        CRM_PARENT_CUSTOMER_ID: '4021',
        CRM_REQUESTER_TAG: 'zoho',
        CRM_EXTERNAL_ORDER_MARKER: 'ZOHO',
      }).crmOrder,
    ).toEqual({
      organisationId: 'org-778899',
      organisationName: 'Zoho One',
      parentCustomerId: 4021,
      requesterTag: 'zoho',
      externalOrderMarker: 'ZOHO',
    });
  });

  it.each([
    ['CRM_PARENT_CUSTOMER_ID', 'abc', /CRM_PARENT_CUSTOMER_ID: must be a positive integer/],
    ['CRM_PARENT_CUSTOMER_ID', '0', /CRM_PARENT_CUSTOMER_ID: must be a positive integer/],
    ['CRM_PARENT_CUSTOMER_ID', '2.5', /CRM_PARENT_CUSTOMER_ID: must be a positive integer/],
    ['CRM_ORGANISATION_ID', 'has space', /CRM_ORGANISATION_ID: must be 1–64 letters/],
    ['CRM_ORGANISATION_NAME', '  ', /CRM_ORGANISATION_NAME: must not be empty/],
    ['CRM_REQUESTER_TAG', '', /CRM_REQUESTER_TAG: must be 1–64 letters/],
    ['CRM_EXTERNAL_ORDER_MARKER', 'a/b', /CRM_EXTERNAL_ORDER_MARKER: must be 1–32 letters/],
  ])('%s=%j fails boot naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
