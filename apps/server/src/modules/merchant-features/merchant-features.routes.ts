import {
  accountParams,
  featureChange,
  featureChangeCancelRequest,
  featureChangeList,
  featureChangeListQuery,
  featureChangeParams,
  featureChangePrepareRequest,
  merchantFeatureChangeView,
  merchantFeatureDecisionRequest,
  merchantLinkParams,
  successEnvelope,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicCtx, serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { ACCOUNT_GUARDS } from '../customer-accounts';
import {
  cancelFeatureChange,
  decideFeatureChange,
  listFeatureChanges,
  prepareFeatureChange,
  viewFeatureChange,
} from './merchant-features.service';

const tags = ['merchant-features'];
const BASE = '/api/customers/:id/:token/featurechanges';

/** Issue 16 point 6 (decision 123): feature changes staff prepare and the merchant accepts through a link. */
export const merchantFeatureRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    BASE,
    {
      onRequest: requireSession({ anyOf: ACCOUNT_GUARDS.featuresWrite }),
      schema: {
        tags,
        summary:
          "Prepare a change of a store's features for the merchant to accept; the link is e-mailed (limited privilege: LIMITED_FEATURES only)",
        params: accountParams,
        body: featureChangePrepareRequest,
        response: { 201: successEnvelope(featureChange) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ info: await prepareFeatureChange(serviceCtx(request), request.params.id, request.body) }),
  );

  app.get(
    BASE,
    {
      onRequest: requireSession({ anyOf: ACCOUNT_GUARDS.featuresRead }),
      schema: {
        tags,
        summary: "The store's prepared feature changes, newest first",
        params: accountParams,
        querystring: featureChangeListQuery,
        response: { 200: successEnvelope(featureChangeList) },
      },
    },
    async (request) => ({
      info: await listFeatureChanges(serviceCtx(request), request.params.id, request.query.custstoreid),
    }),
  );

  app.post(
    `${BASE}/:changeId/cancel`,
    {
      onRequest: requireSession({ anyOf: ACCOUNT_GUARDS.featuresWrite }),
      schema: {
        tags,
        summary: 'Withdraw a feature change the merchant has not decided; its link stops working',
        params: featureChangeParams,
        body: featureChangeCancelRequest,
        response: { 200: successEnvelope(featureChange) },
      },
    },
    async (request) => ({
      info: await cancelFeatureChange(
        serviceCtx(request),
        request.params.id,
        request.params.changeId,
        request.body.version,
      ),
    }),
  );

  /** The link token is a credential: guessing is slowed down as on the payment pages (the sign-in limit). */
  const publicLimit = { rateLimit: { max: app.ctx.config.signInRateLimitPerMinute, timeWindow: 60_000 } };
  app.get(
    '/api/public/features/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: "The merchant's page of a feature change: the store, the changes, the monthly amount now and after",
        params: merchantLinkParams,
        response: { 200: successEnvelope(merchantFeatureChangeView) },
      },
    },
    async (request) => ({ info: await viewFeatureChange(publicCtx(request), request.params.tok) }),
  );
  app.post(
    '/api/public/features/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: 'The merchant accepts (applied at once) or declines the feature change; the link is used up',
        params: merchantLinkParams,
        body: merchantFeatureDecisionRequest,
        response: { 200: successEnvelope(merchantFeatureChangeView) },
      },
    },
    async (request) => ({
      info: await decideFeatureChange(publicCtx(request), request.params.tok, request.body),
    }),
  );
};
