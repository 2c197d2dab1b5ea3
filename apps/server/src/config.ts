import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ACCOUNT_CODES,
  parseMarketFees,
  parseRetryDays,
  type AccountCode,
  type MarketFee,
  type TaxRegistrationNumbers,
} from '@pos/domain';

/**
 * apps/server. This module runs from apps/server/src (tsx, tests) or from the bundle in apps/server/dist
 * (npm start, decision 041): both are one folder below apps/server, so paths are resolved from here.
 */
export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root (apps/server → ../..). */
export const REPO_ROOT = path.resolve(SERVER_DIR, '../..');

const serverPackage = JSON.parse(readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as { version: string };

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every environment variable the server reads, with its default. README's configuration table mirrors this. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).optional(),
  SEED_DEMO_DATA: boolish.default(true),
  TRUST_PROXY: boolish.default(false),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('POS Back Office <no-reply@example.com>'),
  /** Who issues the invoices (the provider's name and postal address on every invoice PDF). */
  INVOICE_ISSUER_NAME: z.string().trim().min(1).default('POS Back Office Inc.'),
  INVOICE_ISSUER_ADDRESS: z.string().trim().min(1).default('100 Main Street, Suite 200, New York, NY 10001, US'),
  /**
   * The provider's GST/HST registration number on Canadian invoices (decision 149): the CRA business number with its
   * RT program account, e.g. 123456789RT0001; unset prints none.
   */
  INVOICE_GST_NUMBER: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .transform((v) => v.replace(/\s+/g, '').toUpperCase())
      .pipe(
        z
          .string()
          .regex(/^\d{9}RT\d{4}$/, { message: 'a GST/HST number is 9 digits, RT and 4 digits (123456789RT0001)' }),
      )
      .optional(),
  ),
  /**
   * The provider's provincial sales tax numbers on Canadian invoices (decision 149): `province=number` pairs,
   * comma-separated, e.g. `BC=PST-1234-5678,QC=1234567890TQ0001` (BC, SK, MB: PST / RST; QC: QST).
   */
  INVOICE_PST_NUMBERS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const map = parseProvincialTaxNumbers(text);
      if (typeof map === 'string') {
        ctx.addIssue({ code: 'custom', message: map });
        return z.NEVER;
      }
      return map;
    }),
  /** Staff sign-in: `local` (built-in OIDC issuer with a demo chooser; refused in production) or `google`. */
  IDENTITY_PROVIDER: z.enum(['local', 'google']).default('local'),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  /** Audience of the local issuer's ID tokens. */
  OIDC_CLIENT_ID: z.string().trim().min(1).default('pos-backoffice-local'),
  /** The address users reach the app at (links in e-mails, the local issuer's `iss`); default http://localhost:${PORT}. */
  // z.httpUrl() refuses hosts without a dot (localhost, 127.0.0.1), which are exactly what a newcomer uses.
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** Comma-separated domains staff e-mail addresses must be in. */
  ALLOWED_EMAIL_DOMAINS: z
    .string()
    .default('example.com,example.org')
    .transform((s) =>
      s
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0, 'must name at least one domain'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(120),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  /** Sign-in, distributor login, password reset and make-token calls allowed per minute per client IP (each route). */
  SIGNIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Run the job workers inside `npm start` (default); false when separate `npm run worker` processes do the work. */
  JOBS_INLINE_WORKERS: boolish.default(true),
  /** CRM (Zoho calls): unset → the local adapter (records requests, checks MIDs by rule); set → the HTTP bridge at this URL. */
  CRM_URL: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
  /** Sent as `Authorization: Bearer …` to CRM_URL. */
  CRM_API_KEY: z.string().trim().min(1).optional(),
  /** How long a CRM call may take before it counts as unavailable. */
  CRM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /**
   * A CRM order (§9, decision 159): an order started from a CRM lead (#/neworder?zoholeadid=…) names this organisation,
   * parent customer and requester tag, and carries the external order marker.
   */
  CRM_ORGANISATION_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, dots, dashes or underscores')
    .default('local-crm'),
  CRM_ORGANISATION_NAME: z.string().trim().min(1, 'must not be empty').max(255).default('Local CRM'),
  CRM_PARENT_CUSTOMER_ID: z.coerce
    .number({ message: 'must be a positive integer' })
    .int('must be a positive integer')
    .min(1, 'must be a positive integer')
    .max(2_147_483_647)
    .default(1),
  CRM_REQUESTER_TAG: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, dots, dashes or underscores')
    .default('crm'),
  CRM_EXTERNAL_ORDER_MARKER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/, 'must be 1–32 letters, digits, dots, dashes or underscores')
    .default('CRM'),
  /** S3-compatible storage for uploads: all five together, or none (→ DATA_DIR/uploads). */
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_REGION: z.string().trim().min(1).optional(),
  /** Payment gateway: unset → the local gateway (test cards, tokenization at /gateway-local; not usable in production); set → the HTTP gateway at this URL. */
  PAYMENT_GATEWAY_URL: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
  /** Sent as `Authorization: Bearer …` to PAYMENT_GATEWAY_URL. */
  PAYMENT_GATEWAY_API_KEY: z.string().trim().min(1).optional(),
  /** The local gateway's slow test card (…0341) answers after this many ms (crash tests; decision 116). */
  LOCAL_GATEWAY_SLOW_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /**
   * Crash tests only (decision 134): the named fault point (lib/fault-point.ts) announces itself and stops there,
   * so the test can SIGKILL the process at that moment. Ignored unless NODE_ENV=test.
   */
  TEST_FAULT_POINT: z.string().trim().min(1).optional(),
  /** Dunning: retry a soft decline these many days after the first failure (decision 116). */
  DUNNING_RETRY_DAYS: z
    .string()
    .default('3,7,14')
    .transform((text, ctx) => {
      const days = parseRetryDays(text);
      if (typeof days === 'string') {
        ctx.addIssue({ code: 'custom', message: days });
        return z.NEVER;
      }
      return days;
    }),
  /**
   * The market fee (billing item 19, decision 158): `COUNTRY-STATE=amount` pairs, comma-separated, e.g.
   * `US-NY=15.00,CA-QC=12.50` — each store in that state / province pays the amount per month of service (in its
   * currency) on its service invoice. Unset: no market fee anywhere.
   */
  MARKET_FEES: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const markets = parseMarketFees(text);
      if (typeof markets === 'string') {
        ctx.addIssue({ code: 'custom', message: markets });
        return z.NEVER;
      }
      return markets;
    }),
  /** Returns (decision 122): a terminal may be returned this many days after its hardware invoice (default 30). */
  RETURN_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** The reconciler asks the gateway about a pending (P) charge once it is this many seconds old. */
  PAYMENT_RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** AES-256 key for bank account numbers: 64 hex characters (32 bytes). Unset → a fixed development key, refused in production (decision 059). */
  DATA_ENCRYPTION_KEY: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  /** `npm run bench` only: GET /api/bench/bare, a constant answer without the database (refused in production). */
  BENCH_ROUTES: boolish.default(false),
  /** The billing run's day: "today" and the daily schedule are in this IANA time zone (decision 113). */
  BILLING_TIME_ZONE: z
    .string()
    .trim()
    .refine(
      (tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be an IANA time zone, e.g. America/New_York' },
    )
    .default('America/New_York'),
  /** When the daily billing run starts (cron, in BILLING_TIME_ZONE; default 02:00). */
  BILLING_RUN_CRON: z.string().trim().min(9).default('0 2 * * *'),
  /**
   * The general-ledger export's account codes (decision 146): `journal=provider` pairs, comma-separated, e.g.
   * `1100=12000,4100=40100`; an account not named keeps the journal's code.
   */
  GL_ACCOUNT_MAP: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const map = parseGlAccountMap(text);
      if (typeof map === 'string') {
        ctx.addIssue({ code: 'custom', message: map });
        return z.NEVER;
      }
      return map;
    }),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  webDist: string;
  seedDemoData: boolean;
  trustProxy: boolean;
  /** SMTP server for real e-mail; null keeps every message in the Mailbox. */
  smtpUrl: string | null;
  mailFrom: string;
  /** The provider's name and address on invoices (INVOICE_ISSUER_NAME, INVOICE_ISSUER_ADDRESS). */
  invoiceIssuer: { name: string; address: string };
  /** INVOICE_GST_NUMBER, INVOICE_PST_NUMBERS: the registrations a Canadian invoice names (decision 149). */
  invoiceTaxNumbers: TaxRegistrationNumbers;
  version: string;
  identityProvider: Env['IDENTITY_PROVIDER'];
  /** The audience ID tokens must carry: GOOGLE_CLIENT_ID in google mode, OIDC_CLIENT_ID in local mode. */
  oidcClientId: string;
  /** Where the local issuer keeps its key pair (`DATA_DIR/oidc-local-key.json`); null keeps it in memory (tests). */
  oidcLocalKeyFile: string | null;
  publicUrl: string;
  allowedEmailDomains: string[];
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  signInRateLimitPerMinute: number;
  /** Job workers run inside the server process (JOBS_INLINE_WORKERS). */
  jobsInlineWorkers: boolean;
  /** The fault point a crash test stops this process at (TEST_FAULT_POINT; only with NODE_ENV=test), or null. */
  faultPoint: string | null;
  /** The CRM adapter: `url` null → local adapter. */
  crm: CrmConfig;
  /** What a CRM order carries (CRM_ORGANISATION_ID … CRM_EXTERNAL_ORDER_MARKER; decision 159). */
  crmOrder: CrmOrderConfig;
  /** S3-compatible upload storage; null → the local folder DATA_DIR/uploads. */
  s3: S3Config | null;
  /** The payment gateway: `url` null → the local gateway. */
  gateway: { url: string | null; apiKey: string | null; localSlowMs: number };
  /** Charging and dunning (decision 116): DUNNING_RETRY_DAYS, PAYMENT_RECONCILE_AFTER_SECONDS. */
  payments: { retryDays: readonly number[]; reconcileAfterSeconds: number };
  /** Returns and refunds (decision 122): RETURN_WINDOW_DAYS. */
  returns: { windowDays: number };
  /** The fees the provider configures (decision 158): MARKET_FEES, the markets whose stores pay the market fee. */
  fees: { markets: readonly MarketFee[] };
  /** DATA_ENCRYPTION_KEY (hex); null → the development key, refused when env is production. */
  dataEncryptionKey: string | null;
  /** BENCH_ROUTES: register GET /api/bench/bare, the bench's baseline (never in production). */
  benchRoutes: boolean;
  /** BILLING_TIME_ZONE, BILLING_RUN_CRON (decision 113). */
  billing: { timeZone: string; cron: string };
  /** GL_ACCOUNT_MAP: the provider's code of each journal account the export renames (decision 146). */
  glAccountMap: Readonly<Partial<Record<AccountCode, string>>>;
}

/** `1100=12000,4100=40100` → { '1100': '12000', '4100': '40100' }, or the reason it is refused. */
export function parseGlAccountMap(text: string): Partial<Record<AccountCode, string>> | string {
  const out: Partial<Record<AccountCode, string>> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d{4})\s*=\s*([A-Za-z0-9][A-Za-z0-9.-]{0,31})$/.exec(part);
    if (!m) return `"${part}" is not journal=provider (e.g. 1100=12000)`;
    const code = m[1] as AccountCode;
    if (!(ACCOUNT_CODES as readonly string[]).includes(code))
      return `${code} is not an account of the journal (${ACCOUNT_CODES.join(', ')})`;
    if (out[code]) return `${code} is mapped twice`;
    out[code] = m[2]!;
  }
  return out;
}

/** Provinces with a provincial sales tax of their own (PST, QST, RST); the HST provinces have none. */
export const PROVINCIAL_TAX_PROVINCES = ['BC', 'SK', 'MB', 'QC'] as const;

/** `BC=PST-1234-5678,QC=1234567890TQ0001` → { BC: 'PST-1234-5678', QC: '1234567890TQ0001' }, or why it is refused. */
export function parseProvincialTaxNumbers(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]{2})\s*=\s*([A-Za-z0-9][A-Za-z0-9 -]{0,29})$/.exec(part);
    if (!m) return `"${part}" is not province=number (e.g. BC=PST-1234-5678)`;
    const province = m[1]!.toUpperCase();
    if (!(PROVINCIAL_TAX_PROVINCES as readonly string[]).includes(province))
      return `${province} has no provincial sales tax number (${PROVINCIAL_TAX_PROVINCES.join(', ')})`;
    if (out[province]) return `${province} is named twice`;
    out[province] = m[2]!.trim();
  }
  return out;
}

export interface CrmConfig {
  url: string | null;
  apiKey: string | null;
  timeoutMs: number;
}

/** The organisation, parent customer, requester tag and external order marker of a CRM order (decision 159). */
export interface CrmOrderConfig {
  organisationId: string;
  organisationName: string;
  parentCustomerId: number;
  requesterTag: string;
  externalOrderMarker: string;
}

export interface S3Config {
  bucket: string;
  /** e.g. https://s3.us-east-1.amazonaws.com or http://127.0.0.1:9000 (objects are addressed path-style). */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export const S3_VARIABLES = [
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_REGION',
] as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse the environment; throws a ConfigError whose message lists every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.IDENTITY_PROVIDER === 'local' && e.NODE_ENV === 'production') {
    problems.push(
      '  IDENTITY_PROVIDER: the local identity provider signs anyone in as any demo user, so it is refused when NODE_ENV=production; set IDENTITY_PROVIDER=google and GOOGLE_CLIENT_ID',
    );
  }
  if (e.IDENTITY_PROVIDER === 'google' && !e.GOOGLE_CLIENT_ID) {
    problems.push('  GOOGLE_CLIENT_ID: required when IDENTITY_PROVIDER=google (the OAuth client id of this app)');
  }
  const s3Set = S3_VARIABLES.filter((name) => e[name] !== undefined);
  if (s3Set.length > 0 && s3Set.length < S3_VARIABLES.length) {
    const missing = S3_VARIABLES.filter((name) => e[name] === undefined);
    problems.push(
      `  S3_*: S3 storage needs all of ${S3_VARIABLES.join(', ')} (or none, to keep uploads in DATA_DIR/uploads); set ${s3Set.join(', ')} but missing ${missing.join(', ')}`,
    );
  }
  if (e.CRM_API_KEY && !e.CRM_URL) {
    problems.push(
      '  CRM_API_KEY: set without CRM_URL (the key is only used by the HTTP CRM adapter); set CRM_URL or remove the key',
    );
  }
  if (e.BENCH_ROUTES && e.NODE_ENV === 'production') {
    problems.push(
      '  BENCH_ROUTES: the bench routes are for npm run bench only, so they are refused when NODE_ENV=production',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist')),
    seedDemoData: e.SEED_DEMO_DATA,
    faultPoint: e.NODE_ENV === 'test' ? (e.TEST_FAULT_POINT ?? null) : null,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    invoiceIssuer: { name: e.INVOICE_ISSUER_NAME, address: e.INVOICE_ISSUER_ADDRESS },
    invoiceTaxNumbers: { gstHst: e.INVOICE_GST_NUMBER ?? null, provincial: e.INVOICE_PST_NUMBERS },
    version: serverPackage.version,
    identityProvider: e.IDENTITY_PROVIDER,
    oidcClientId: e.IDENTITY_PROVIDER === 'google' ? (e.GOOGLE_CLIENT_ID as string) : e.OIDC_CLIENT_ID,
    oidcLocalKeyFile: path.join(dataDir, 'oidc-local-key.json'),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    allowedEmailDomains: e.ALLOWED_EMAIL_DOMAINS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    signInRateLimitPerMinute: e.SIGNIN_RATE_LIMIT_PER_MINUTE,
    jobsInlineWorkers: e.JOBS_INLINE_WORKERS,
    crm: { url: e.CRM_URL ?? null, apiKey: e.CRM_API_KEY ?? null, timeoutMs: e.CRM_TIMEOUT_MS },
    crmOrder: {
      organisationId: e.CRM_ORGANISATION_ID,
      organisationName: e.CRM_ORGANISATION_NAME,
      parentCustomerId: e.CRM_PARENT_CUSTOMER_ID,
      requesterTag: e.CRM_REQUESTER_TAG,
      externalOrderMarker: e.CRM_EXTERNAL_ORDER_MARKER,
    },
    s3:
      s3Set.length === S3_VARIABLES.length
        ? {
            bucket: e.S3_BUCKET as string,
            endpoint: (e.S3_ENDPOINT as string).replace(/\/+$/, ''),
            accessKeyId: e.S3_ACCESS_KEY_ID as string,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
            region: e.S3_REGION as string,
          }
        : null,
    gateway: {
      url: e.PAYMENT_GATEWAY_URL?.replace(/\/+$/, '') ?? null,
      apiKey: e.PAYMENT_GATEWAY_API_KEY ?? null,
      localSlowMs: e.LOCAL_GATEWAY_SLOW_MS,
    },
    payments: { retryDays: e.DUNNING_RETRY_DAYS, reconcileAfterSeconds: e.PAYMENT_RECONCILE_AFTER_SECONDS },
    returns: { windowDays: e.RETURN_WINDOW_DAYS },
    fees: { markets: e.MARKET_FEES },
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY?.toLowerCase() ?? null,
    benchRoutes: e.BENCH_ROUTES,
    billing: { timeZone: e.BILLING_TIME_ZONE, cron: e.BILLING_RUN_CRON },
    glAccountMap: e.GL_ACCOUNT_MAP,
  };
}
