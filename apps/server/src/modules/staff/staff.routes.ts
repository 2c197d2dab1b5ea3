import {
  ROLE,
  staffAccount,
  staffIdParams,
  staffList,
  staffListQuery,
  staffRolesPrivileges,
  successEnvelope,
  tokenParams,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../../http/csv-reply';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { getStaffAccount, listStaff, rolesAndPrivileges, setStaffActive, staffCsv } from './staff.service';

const adminOnly = requireSession({ roles: [ROLE.ADMIN] });
const tags = ['admin'];

/**
 * Admin → Staff (#/admin/staff; issue 31 item 2, decision 157). Contracts: packages/domain/src/contracts/staff.ts. A
 * role or extra privileges change through PUT /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token} (auth module).
 */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/staff/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary:
          'Staff accounts: search by name or e-mail, role, active; sort by name, email or last_sign_in_at; paged; format=csv: every matching account as CSV',
        params: tokenParams,
        querystring: staffListQuery,
        response: { 200: successEnvelope(staffList) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv') return sendCsv(reply, ctx, 'staff', staffCsv(ctx, request.query));
      return { info: await listStaff(ctx, request.query) };
    },
  );

  app.get(
    '/api/admin/staff/roles-privileges/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'The roles (with the privileges each grants) and every privilege, with their ids',
        params: tokenParams,
        response: { 200: successEnvelope(staffRolesPrivileges) },
      },
    },
    async (request) => ({ info: await rolesAndPrivileges(serviceCtx(request)) }),
  );

  app.get(
    '/api/admin/staff/:id/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'One staff account: role, extra privileges, active, last sign-in',
        params: staffIdParams,
        response: { 200: successEnvelope(staffAccount) },
      },
    },
    async (request) => ({ info: await getStaffAccount(serviceCtx(request), request.params.id) }),
  );

  app.post(
    '/api/admin/staff/:id/deactivate/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: "Deactivate a staff account: it cannot sign in and its sessions end (never one's own: 409)",
        params: staffIdParams,
        response: { 200: successEnvelope(staffAccount) },
      },
    },
    async (request) => ({
      info: await setStaffActive(serviceCtx(request), { staffId: request.params.id, active: false }),
    }),
  );

  app.post(
    '/api/admin/staff/:id/reactivate/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Reactivate a staff account: it may sign in again',
        params: staffIdParams,
        response: { 200: successEnvelope(staffAccount) },
      },
    },
    async (request) => ({
      info: await setStaffActive(serviceCtx(request), { staffId: request.params.id, active: true }),
    }),
  );
};
