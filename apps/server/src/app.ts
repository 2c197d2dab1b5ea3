import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { BUSINESS_DATE_HEADER, calendarDayIn } from '@pos/domain';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { frameworkErrors, registerErrorHandling } from './http/error-handler';
import { AppError } from './http/errors';
import { refuseUnstorableInput } from './http/input-guard';
import { redactUrl } from './http/redact';
import { sessionPlugin } from './http/session';
import { xsrfPlugin } from './http/xsrf';
import { createAppContext, type AppContextOptions } from './context';
import { registerListeners } from './listeners';
import { adminRoutes } from './modules/admin';
import { billingRoutes } from './modules/billing';
import { breathOfLifeRoutes } from './modules/breath-of-life';
import { agentRoutes } from './modules/agents';
import { authRoutes, distributorRoutes, localOidcRoutes } from './modules/auth';
import { bankRoutes } from './modules/banks';
import { catalogueRoutes } from './modules/catalogue';
import { catalogueAdminRoutes } from './modules/catalogue-admin';
import { contractRoutes } from './modules/contracts';
import { merchantFeatureRoutes } from './modules/merchant-features';
import { merchantPaymentRoutes } from './modules/merchant-payments';
import { currencyRoutes } from './modules/currencies';
import { customerAccountRoutes } from './modules/customer-accounts';
import { customerRoutes } from './modules/customers';
import { benchRoutes, healthRoutes } from './modules/health';
import { failedPaymentRoutes } from './modules/failed-payments';
import { salesReportRoutes } from './modules/sales-reports';
import { returnRoutes } from './modules/returns';
import { memoRoutes } from './modules/memos';
import { approvalRoutes } from './modules/approvals';
import { invoiceRoutes } from './modules/invoices';
import { receiptRoutes } from './modules/receipts';
import { reconciliationRoutes } from './modules/reconciliation';
import { reportRoutes } from './modules/reports';
import { customerListingRoutes } from './modules/customer-listing';
import { jobRoutes } from './modules/jobs';
import { ledgerRoutes } from './modules/ledger';
import { accountingRoutes } from './modules/accounting';
import { notificationRoutes } from './modules/notifications';
import { onboardingRoutes } from './modules/onboarding';
import { orderStatusRoutes } from './modules/order-status';
import { orderRoutes } from './modules/orders';
import { crmLeadRoutes } from './modules/crm-leads';
import { paymentAuthorizationRoutes } from './modules/payment-authorizations';
import { promotionRoutes } from './modules/promotions';
import { searchRoutes } from './modules/search';
import { staffRoutes } from './modules/staff';
import { storeFileRoutes } from './modules/store-files';
import { taxRoutes } from './modules/taxes';
import { MULTIPART_LIMITS, uploadRoutes } from './modules/uploads';
import type { LocalGateway } from './integrations/gateway/local-gateway';
import { localGatewayRoutes } from './integrations/gateway/local-gateway.routes';

/** Strict-Transport-Security of HTTPS answers: 180 days, subdomains too. */
export const HSTS = 'max-age=15552000; includeSubDomains';

/** A place log lines (JSON, one per line) are written to. */
export interface LogStream {
  write(line: string): void;
}

export interface BuildAppOptions extends AppContextOptions {
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: LogStream;
  /** Called for every route as it is registered (the route-walk test collects them). */
  onRoute?: (route: RouteOptions) => void;
}

export type App = FastifyInstance;

/** Build the whole HTTP application without listening. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config } = options;
  const app = Fastify({
    logger: options.logStream ? { level: config.logLevel, stream: options.logStream } : { level: config.logLevel },
    // One line per request is written by our onResponse hook instead (with tokens redacted).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a too long path parameter, a bad percent-encoding) in the error envelope.
    frameworkErrors,
    // Zod validates and serializes (as set below); naming the compilers here also keeps Fastify from loading its
    // default Ajv and fast-json-stringify compilers at start (decision 041). Fastify types these factories for Ajv.
    schemaController: {
      compilersFactory: {
        buildValidator: (() => validatorCompiler) as never,
        buildSerializer: (() => serializerCompiler) as never,
      },
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // The queue starts on first use; workers are started by main.ts / worker.ts.
  const ctx = await createAppContext(options);
  app.decorate('ctx', ctx);
  registerListeners();
  // Workers stop (active jobs finish, up to 10 s) before the database closes.
  app.addHook('onClose', async () => app.ctx.queue.stop());

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  refuseUnstorableInput(app);

  // One log line per request, with every token redacted from the path.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url, request.routeOptions.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // The business day the server checks dates against (issue 30): the web app's "today" is this one.
    if (isApiPath(request.url))
      reply.header(BUSINESS_DATE_HEADER, calendarDayIn(app.ctx.clock.now(), app.ctx.config.billing.timeZone));
    // Every API answer — guarded or public (the merchant's link pages), success or error — is personal or
    // session-bound: no browser or proxy keeps a copy (issue 27). A route's own stricter value stays
    // (uploads: 'private, no-store'); the web app's static files set their own (registerWebApp).
    if (isApiPath(request.url) && !String(reply.getHeader('cache-control') ?? '').includes('no-store'))
      reply.header('cache-control', 'no-store');
  });

  await app.register(fastifyCookie);
  // Multipart bodies are parsed only where a route asks (the upload service); limits: one file ≤ 5,242,880 bytes.
  await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS });
  // Google Identity Services (button + one-tap) loads a script, a stylesheet and an iframe from
  // accounts.google.com/gsi and opens a popup; only in google mode.
  const google = config.identityProvider === 'google';
  const gsi = google ? ['https://accounts.google.com/gsi/'] : [];
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(google ? ['https://accounts.google.com/gsi/client'] : [])],
        styleSrc: ["'self'", "'unsafe-inline'", ...(google ? ['https://accounts.google.com/gsi/style'] : [])],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...gsi],
        ...(google ? { frameSrc: gsi } : {}),
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginOpenerPolicy: { policy: google ? 'same-origin-allow-popups' : 'same-origin' },
    // HSTS only on answers to HTTPS requests (below), never on plain HTTP (decision 135).
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  // HSTS when the request came over TLS: the socket itself, or (TRUST_PROXY) a proxy's X-Forwarded-Proto: https;
  // also whenever PUBLIC_URL is https (the deployment is served over TLS, whatever the proxy tells us).
  const httpsDeployment = config.publicUrl.startsWith('https://');
  app.addHook('onRequest', async (request, reply) => {
    if (httpsDeployment || request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  await app.register(xsrfPlugin, { secureCookie: config.env === 'production' });
  await app.register(sessionPlugin);
  // Per-route limits only (sign-in, distributor login, password reset, make-token); in memory per instance.
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many attempts from this address. Wait ${context.after} and try again.`),
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'pos-backoffice API',
        version: config.version,
        description:
          'Back-office API. Every call carries the session token in its path; non-GET calls need X-XSRF-TOKEN.',
      },
    },
    transform: jsonSchemaTransform,
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  await api.register(healthRoutes);
  if (config.benchRoutes) await api.register(benchRoutes);
  await api.register(authRoutes);
  await api.register(distributorRoutes);
  if (ctx.identity.local) await api.register(localOidcRoutes, { issuer: ctx.identity.local });
  await api.register(currencyRoutes);
  await api.register(bankRoutes);
  await api.register(catalogueRoutes);
  await api.register(catalogueAdminRoutes);
  await api.register(uploadRoutes);
  await api.register(notificationRoutes);
  await api.register(jobRoutes);
  await api.register(adminRoutes);
  await api.register(taxRoutes);
  await api.register(storeFileRoutes);
  await api.register(staffRoutes);
  await api.register(customerRoutes);
  await api.register(customerAccountRoutes);
  // The local gateway's host (development and tests; the composition root registers it: decision 144).
  if (ctx.gateway.kind === 'local' && ctx.gateway.available)
    await api.register(localGatewayRoutes, { gateway: ctx.gateway as LocalGateway });
  await api.register(ledgerRoutes);
  await api.register(reconciliationRoutes);
  await api.register(accountingRoutes);
  await api.register(invoiceRoutes);
  await api.register(failedPaymentRoutes);
  await api.register(breathOfLifeRoutes);
  await api.register(salesReportRoutes);
  await api.register(receiptRoutes);
  await api.register(customerListingRoutes);
  await api.register(returnRoutes);
  await api.register(memoRoutes);
  await api.register(approvalRoutes);
  await api.register(orderStatusRoutes);
  await api.register(orderRoutes);
  await api.register(agentRoutes);
  await api.register(promotionRoutes);
  await api.register(crmLeadRoutes);
  await api.register(paymentAuthorizationRoutes);
  await api.register(contractRoutes);
  await api.register(merchantPaymentRoutes);
  await api.register(merchantFeatureRoutes);
  await api.register(onboardingRoutes);
  await api.register(searchRoutes);
  await api.register(billingRoutes);
  await api.register(reportRoutes);
  api.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerWebApp(app, config.webDist);
  return app;
}

/** Is this request's path under /api (the JSON API, its downloads and the public link pages' calls)? */
export function isApiPath(url: string): boolean {
  const p = url.split('?')[0] ?? '';
  return p === '/api' || p.startsWith('/api/');
}

/**
 * Serve the built single-page app as a CDN would (issue 32): index.html is never cached, hashed assets forever;
 * the brotli or gzip copy the build made beside a file (scripts/precompress.mjs) is sent when the browser accepts it
 * (Vary: accept-encoding), so nothing is compressed per request.
 */
function registerWebApp(app: FastifyInstance, webDist: string): void {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) {
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>pos-backoffice</title><p>The web app is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>',
        ),
    );
    return;
  }
  void app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    index: ['index.html'],
    preCompressed: true,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
