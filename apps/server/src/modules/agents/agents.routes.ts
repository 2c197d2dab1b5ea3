import { sendCsv } from '../../http/csv-reply';
import {
  agentCreateRequest,
  agentDeactivateRequest,
  agentDetail,
  agentIdParams,
  agentInviteResult,
  agentList,
  agentPage,
  agentPageQuery,
  agentStorePage,
  agentStoresQuery,
  agentUpdateRequest,
  agentOrderAssignments,
  agentOrderRequest,
  agentOrderUpdateRequest,
  getAgentsQuery,
  orderIdTokenParams,
  successEnvelope,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  agentPageCsv,
  createAgentRecord,
  deactivateAgent,
  getAgent,
  inviteAgent,
  listAgentPage,
  listAgentStores,
  updateAgentRecord,
} from './agent-admin.service';
import { addAgentOrder, deleteAgentOrder, listAgents, listOrderAgents, updateAgentOrder } from './agents.service';

/** Who may call what (any one privilege passes, spec §6; decision 076). */
export const AGENT_GUARDS = {
  read: ['search_orders_view', 'search_orders_edit', 'create_distributor_orders'],
  write: ['search_orders_edit'],
} as const satisfies Record<string, readonly Permission[]>;

const tags = ['agents'];
const tokenParams = z.object({ token: z.string() });

/** Agents lookup and agent orders (spec §7 Orders; decision 076). */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/getagents/:token',
    {
      onRequest: requireSession({ anyOf: AGENT_GUARDS.read }),
      schema: {
        tags,
        summary: 'Active agents by at most one of search=, type=, types= or email= (none: all; paginated)',
        params: tokenParams,
        querystring: getAgentsQuery,
        response: { 200: successEnvelope(agentList) },
      },
    },
    async (request) => ({ info: await listAgents(serviceCtx(request), request.query) }),
  );

  const write = requireSession({ anyOf: AGENT_GUARDS.write });

  // Our addition (decision 162): the order panel reads the order's agents. Static `add` / `updateagentid` / `delete`
  // segments are other methods, so GET /agentorders/:orderId/:token cannot shadow them.
  app.get(
    '/api/customers/agentorders/:orderId/:token',
    {
      onRequest: requireSession({ anyOf: AGENT_GUARDS.read }),
      schema: {
        tags,
        summary: "The order's agents (by assignment time), its main agent and version; 404 for an order not visible",
        params: orderIdTokenParams,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await listOrderAgents(serviceCtx(request), request.params.orderId) }),
  );

  app.post(
    '/api/customers/agentorders/:token/add',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Put an agent on an order',
        params: tokenParams,
        body: agentOrderRequest,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await addAgentOrder(serviceCtx(request), request.body) }),
  );

  app.put(
    '/api/customers/agentorders/:token/updateagentid',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Switch the order to one agent (optional order version)',
        params: tokenParams,
        body: agentOrderUpdateRequest,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await updateAgentOrder(serviceCtx(request), request.body) }),
  );

  app.delete(
    '/api/customers/agentorders/:token/delete',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Take an agent off an order',
        params: tokenParams,
        body: agentOrderRequest,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await deleteAgentOrder(serviceCtx(request), request.body) }),
  );

  // ── Agent management (issue 17; decision 124): any session reads (scoped by the agent-access rule); the
  // service refuses writes to anyone but Admin, RAM or IS staff.
  const session = requireSession();
  const mgmt = ['agents'];

  app.get(
    '/api/agents/:token',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary:
          'Agents the session may see (type, channel, text, status filters; by name; paged). format=csv: every row as CSV',
        params: tokenParams,
        querystring: agentPageQuery,
        response: { 200: successEnvelope(agentPage) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv') {
        return sendCsv(reply, ctx, 'agents', agentPageCsv(ctx, request.query));
      }
      return { info: await listAgentPage(ctx, request.query) };
    },
  );

  app.get(
    '/api/agents/:agentId/:token',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary: 'One agent (404 for an agent outside the session’s scope)',
        params: agentIdParams,
        response: { 200: successEnvelope(agentDetail) },
      },
    },
    async (request) => ({ info: await getAgent(serviceCtx(request), request.params.agentId) }),
  );

  app.get(
    '/api/agents/:agentId/:token/stores',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary: "The agent's stores (agent_stores) with their status and open balance (ledger), paged",
        params: agentIdParams,
        querystring: agentStoresQuery,
        response: { 200: successEnvelope(agentStorePage) },
      },
    },
    async (request) => ({
      info: await listAgentStores(serviceCtx(request), request.params.agentId, request.query),
    }),
  );

  app.post(
    '/api/agents/:token',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary: 'Create an agent (Admin, RAM or IS; e-mail unique, any case → 409)',
        params: tokenParams,
        body: agentCreateRequest,
        response: { 200: successEnvelope(agentDetail) },
      },
    },
    async (request) => ({ info: await createAgentRecord(serviceCtx(request), request.body) }),
  );

  app.put(
    '/api/agents/:agentId/:token',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary: 'Edit an agent (Admin, RAM or IS; version → 409 when stale)',
        params: agentIdParams,
        body: agentUpdateRequest,
        response: { 200: successEnvelope(agentDetail) },
      },
    },
    async (request) => ({
      info: await updateAgentRecord(serviceCtx(request), request.params.agentId, request.body),
    }),
  );

  app.post(
    '/api/agents/:agentId/:token/deactivate',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary: 'Deactivate an agent and its distributor logins (Admin, RAM or IS; version)',
        params: agentIdParams,
        body: agentDeactivateRequest,
        response: { 200: successEnvelope(agentDetail) },
      },
    },
    async (request) => ({
      info: await deactivateAgent(serviceCtx(request), request.params.agentId, request.body),
    }),
  );

  app.post(
    '/api/agents/:agentId/:token/invite',
    {
      onRequest: session,
      schema: {
        tags: mgmt,
        summary: 'Invite a Distributor agent to the distributor login: e-mail with a set-password link (reset flow)',
        params: agentIdParams,
        response: { 200: successEnvelope(agentInviteResult) },
      },
    },
    async (request) => ({ info: await inviteAgent(serviceCtx(request), request.params.agentId) }),
  );
};
