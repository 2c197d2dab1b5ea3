import { describe, expect, it } from 'vitest';
import { checkImports, gatewayUses, statusLiterals } from './check-imports.mjs';

const S = 'apps/server/src/';
/** A made-up tree: paths under apps/server/src → their text. */
const tree = (files) => new Map(Object.entries(files).map(([p, text]) => [p.startsWith('apps/') ? p : S + p, text]));

describe('check-imports', () => {
  it('passes a tree whose modules meet through their index.ts only, one way', () => {
    const problems = checkImports(
      tree({
        'app.ts': "import { aRoutes } from './modules/a';\nimport { bRoutes } from './modules/b';",
        'modules/a/index.ts': "export { aRoutes } from './a.routes';",
        'modules/a/a.routes.ts': "import { helper } from '../../lib/helper';\nimport { b } from '../b';",
        'modules/b/index.ts': "export { b } from './b.service';\nexport { bRoutes } from './b.routes';",
        'modules/b/b.service.ts': "import type { Db } from '../../db/client';",
        'modules/b/b.routes.ts': "import { b } from './b.service';",
        'lib/helper.ts': 'export const helper = 1;',
        'db/client.ts': 'export type Db = object;',
      }),
    );
    expect(problems).toEqual([]);
  });

  it('finds a made-up import cycle between files, type-only imports included', () => {
    const problems = checkImports(
      tree({
        'http/session.ts': "import { find } from './session-store';",
        'http/session-store.ts': "import type { SessionContext } from './session';",
      }),
    );
    expect(problems).toEqual([`import cycle in ${S}: http/session-store.ts → http/session.ts → http/session-store.ts`]);
  });

  it('finds a cycle between modules that no file cycle shows (each module through its index.ts)', () => {
    const problems = checkImports(
      tree({
        'modules/orders/index.ts': "export { hook } from './hooks';",
        'modules/orders/hooks.ts': 'export const hook = 1;',
        'modules/orders/orders.service.ts': "import { regenerate } from '../contracts';",
        'modules/contracts/index.ts': "export { regenerate } from './contracts.service';",
        'modules/contracts/contracts.service.ts': "import { hook } from '../orders';",
      }),
    );
    expect(problems).toEqual([`module cycle in ${S}: modules/contracts/ → modules/orders/ → modules/contracts/`]);
  });

  it('leaves tests and what only tests import out of the cycle check', () => {
    const problems = checkImports(
      tree({
        'app.ts': "import { aRoutes } from './modules/a';",
        'modules/a/index.ts': "export { aRoutes } from './a.routes';",
        'modules/a/a.routes.ts': 'export const aRoutes = 1;',
        'modules/a/test-support.ts': "import { buildApp } from '../../test/test-app';",
        'modules/a/a.test.ts': "import { fixture } from './test-support';",
        'test/test-app.ts': "import { buildApp } from '../app';",
      }),
    );
    expect(problems).toEqual([]);
  });

  it("refuses a module importing another module's internals, even a type", () => {
    const problems = checkImports(
      tree({
        'modules/b/index.ts': "export { b } from './b.service';",
        'modules/b/b.service.ts': 'export const b = 1;',
        'modules/a/a.service.ts': "import type { B } from '../b/b.service';",
        'jobs/workers/w.ts': "import { b } from '../../modules/b/b.service';",
        'modules/b/b.routes.ts': "import { b } from './index';",
      }),
    );
    expect(problems).toEqual([
      `${S}jobs/workers/w.ts: "../../modules/b/b.service" — module "b" is entered through modules/b/index.ts only (its public surface)`,
      `${S}modules/a/a.service.ts: "../b/b.service" — module "b" is entered through modules/b/index.ts only (its public surface)`,
      `${S}modules/b/b.routes.ts: "./index" — a module does not import its own index.ts (import the file itself)`,
    ]);
  });

  it('refuses lib/, db/, http/, integrations/ and context.ts importing a module', () => {
    const problems = checkImports(
      tree({
        'modules/auth/index.ts': "export { hashPassword } from './passwords';",
        'modules/auth/passwords.ts': 'export const hashPassword = 1;',
        'db/factories/access.ts': "import { hashPassword } from '../../modules/auth';",
        'context.ts': "import type { X } from './modules/auth';",
      }),
    );
    expect(problems).toEqual([
      `${S}context.ts: "./modules/auth" — context.ts sits below the modules and imports none (imports module "auth")`,
      `${S}db/factories/access.ts: "../../modules/auth" — db/ sits below the modules and imports none (imports module "auth")`,
    ]);
  });

  it('keeps the earlier rules: domain on zod only, web features apart, no server code in the web', () => {
    const problems = checkImports(
      new Map([
        ['packages/domain/src/rules/x.ts', "import Fastify from 'fastify';"],
        ['packages/domain/src/rules/y.ts', "import fc from 'fast-check';"],
        ['packages/domain/src/rules/y.test.ts', "import fc from 'fast-check';"],
        ['apps/web/src/features/orders/page.tsx', "import { Card } from '../customers/card';"],
        ['apps/web/src/features/customers/card.tsx', "import { x } from '../../../../server/src/lib/clock';"],
        ['apps/server/src/lib/clock.ts', 'export const x = 1;'],
      ]),
    );
    expect(problems).toEqual([
      'apps/web/src/features/customers/card.tsx: "../../../../server/src/lib/clock" — the web never imports server code',
      'apps/web/src/features/orders/page.tsx: "../customers/card" — feature "orders" may not import feature "customers"',
      'packages/domain/src/rules/x.ts: "fastify" — domain may depend on nothing but zod (imports "fastify")',
      'packages/domain/src/rules/y.ts: "fast-check" — domain may depend on nothing but zod (imports "fast-check")',
    ]);
  });

  it('refuses a web api/ file importing components/ or a feature, and passes a feature importing api/', () => {
    const problems = checkImports(
      tree({
        'apps/web/src/api/customers.ts': "import { Spinner } from '../components/spinner';",
        'apps/web/src/components/spinner.tsx': 'export const Spinner = 1;',
        'apps/web/src/features/orders/page.tsx': "import { x } from '../../api/customers';",
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/apps\/web\/src\/api\/customers\.ts.*api\/ may not import components\//),
    ]);
  });

  it('finds an order status code written as a literal in the web, and only there', () => {
    expect(statusLiterals('apps/web/src/features/orders/x.ts', "const a = 1;\nif (status === '11') go();")).toEqual([
      'apps/web/src/features/orders/x.ts:2: an order status code as a literal — use ORDER_STATUS.… from the domain',
    ]);
    // A '1' that is not about a status (a switch in the address) is not one.
    expect(statusLiterals('apps/web/src/components/list/x.ts', "const SWITCH_ON = '1';")).toEqual([]);
    expect(statusLiterals('apps/web/src/features/orders/x.ts', 'if (s === ORDER_STATUS.COMPLETE) go();')).toEqual([]);
    expect(statusLiterals('packages/domain/src/codes/order-status.ts', "COMPLETE: '150',")).toEqual([]);
  });

  it('refuses any module but payments importing integrations/gateway (decision 144); the composition root may', () => {
    const problems = checkImports(
      tree({
        'integrations/gateway/index.ts': 'export const createGateway = 1;',
        'integrations/gateway/local-gateway.ts': 'export const x = 1;',
        'context.ts': "import { createGateway } from './integrations/gateway';",
        'app.ts': "import { x } from './integrations/gateway/local-gateway';",
        'modules/payments/money.service.ts': "import { GatewayOutcomeUnknown } from '../../integrations/gateway';",
        'modules/payments/money.test.ts': "import type { LocalGateway } from '../../integrations/gateway';",
        'modules/memos/memos.service.ts': "import { GatewayOutcomeUnknown } from '../../integrations/gateway';",
        'jobs/collection.ts': "import type { X } from '../integrations/gateway/local-gateway';",
      }),
    );
    expect(problems).toEqual([
      `${S}jobs/collection.ts: "../integrations/gateway/local-gateway" — no module but payments imports integrations/gateway (the money path, decision 144)`,
      `${S}modules/memos/memos.service.ts: "../../integrations/gateway" — no module but payments imports integrations/gateway (the money path, decision 144)`,
    ]);
  });

  it("refuses the context's gateway used outside payments, whichever way it is reached", () => {
    const text = [
      '// a comment may name ctx.app.gateway',
      'await ctx.app.gateway.refund(x);',
      'const g = app.ctx.gateway;',
      'const { gateway } = ctx.app;',
      'tokenize_url: gatewayInfo(ctx.app).tokenize_url,',
    ].join('\n');
    expect(gatewayUses(`${S}modules/returns/returns.service.ts`, text).map((p) => p.split(': ')[0])).toEqual([
      `${S}modules/returns/returns.service.ts:2`,
      `${S}modules/returns/returns.service.ts:3`,
      `${S}modules/returns/returns.service.ts:4`,
    ]);
    expect(gatewayUses(`${S}modules/payments/money.service.ts`, text)).toEqual([]);
    expect(gatewayUses(`${S}app.ts`, text)).toEqual([]);
    expect(gatewayUses(`${S}modules/returns/returns.test.ts`, text)).toEqual([]);
  });
});
