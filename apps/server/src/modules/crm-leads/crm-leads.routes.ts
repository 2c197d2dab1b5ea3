import { crmLeadInfo, crmLeadParams, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { getCrmLead } from './crm-leads.service';

/** Starting an order from a CRM lead needs what starting any order needs (§4: #/neworder is create_distributor_orders). */
const canStartOrder = requireSession({ anyOf: ['create_distributor_orders'] });

/** Issue 31 item 4 (decision 159): a CRM lead for the New order page. */
export const crmLeadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/crm/leads/:leadId/:token',
    {
      onRequest: canStartOrder,
      schema: {
        tags: ['orders'],
        summary: 'A CRM lead for a new order, with the CRM order settings (404 unknown lead; 503 the CRM is down)',
        params: crmLeadParams,
        response: { 200: successEnvelope(crmLeadInfo) },
      },
    },
    async (request) => ({ info: await getCrmLead(serviceCtx(request), { leadId: request.params.leadId }) }),
  );
};
