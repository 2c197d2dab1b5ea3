import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (apps/server/src → ../../..). */
export const REPO_ROOT = path.resolve(here, '../../..');

const serverPackage = JSON.parse(readFileSync(path.join(here, '../package.json'), 'utf8')) as { version: string };

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
  /** Staff sign-in: `local` (built-in OIDC issuer with a demo chooser; refused in production) or `google`. */
  IDENTITY_PROVIDER: z.enum(['local', 'google']).default('local'),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  /** Audience of the local issuer's ID tokens. */
  OIDC_CLIENT_ID: z.string().trim().min(1).default('pos-backoffice-local'),
  /** The address users reach the app at (links in e-mails, the local issuer's `iss`); default http://localhost:${PORT}. */
  PUBLIC_URL: z.httpUrl('must be an http:// or https:// URL').optional(),
  /** Comma-separated domains staff e-mail addresses must be in. */
  ALLOWED_EMAIL_DOMAINS: z
    .string()
    .default('example.com,example.org')
    .transform((s) => s.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean))
    .refine((list) => list.length > 0, 'must name at least one domain'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(120),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  /** Sign-in, distributor login, password reset and make-token calls allowed per minute per client IP (each route). */
  SIGNIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
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
}

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
    trustProxy: e.TRUST_PROXY,
    version: serverPackage.version,
    identityProvider: e.IDENTITY_PROVIDER,
    oidcClientId: e.IDENTITY_PROVIDER === 'google' ? (e.GOOGLE_CLIENT_ID as string) : e.OIDC_CLIENT_ID,
    oidcLocalKeyFile: path.join(dataDir, 'oidc-local-key.json'),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    allowedEmailDomains: e.ALLOWED_EMAIL_DOMAINS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    signInRateLimitPerMinute: e.SIGNIN_RATE_LIMIT_PER_MINUTE,
  };
}
