import {
  MAIL_TEMPLATE_LABELS,
  mailList,
  mailMessage,
  PAGINATION,
  type MailMessageInfo,
  type MailSummary,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { datedFileName } from '../../../lib/download';
import { downloadCsv, mailCsv } from '../lib/csv';
import { adminKeys } from './keys';

/*
 * GET /api/admin/mail/{token}?to=&template=&limit&offset → { items, total, total_capped }   (Admin only)
 * GET /api/admin/mail/{id}/{token}                       → one message with html, text, error
 */

export type MailList = z.infer<typeof mailList>;

/** What the Mailbox shows: a recipient text (contains, any case) and an exact template. */
export interface MailFilter {
  readonly to: string;
  readonly template: string | null;
}

export const MAIL_PAGE_SIZE = 25;

/** The templates the server sends, with the names people read (from the domain). */
export const MAIL_TEMPLATES: readonly { readonly value: string; readonly label: string }[] = Object.entries(
  MAIL_TEMPLATE_LABELS,
).map(([value, label]) => ({ value, label }));

function filterQuery(filter: MailFilter) {
  const to = filter.to.trim();
  return { to: to || undefined, template: filter.template ?? undefined };
}

export async function getMailList(
  filter: MailFilter,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<MailList> {
  const info = await api.get<unknown>('/api/admin/mail/{token}', {
    query: { ...filterQuery(filter), ...page },
    signal,
  });
  return mailList.parse(info);
}

/** One page (1-based) of the Mailbox list. */
export function getMailListQueryOptions(filter: MailFilter, page: number) {
  const query = { ...filterQuery(filter), page };
  return queryOptions({
    queryKey: adminKeys.mailList(query),
    queryFn: ({ signal }) =>
      getMailList(filter, { limit: MAIL_PAGE_SIZE, offset: (page - 1) * MAIL_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useMailList(filter: MailFilter, page: number) {
  return useQuery(getMailListQueryOptions(filter, page));
}

export async function getMailMessage(id: number, signal?: AbortSignal): Promise<MailMessageInfo> {
  return mailMessage.parse(await api.get<unknown>('/api/admin/mail/{id}/{token}', { params: { id }, signal }));
}

export function getMailMessageQueryOptions(id: number) {
  return queryOptions({ queryKey: adminKeys.mailMessage(id), queryFn: ({ signal }) => getMailMessage(id, signal) });
}

export function useMailMessage(id: number | null) {
  return useQuery({ ...getMailMessageQueryOptions(id ?? 0), enabled: id !== null });
}

/**
 * Every message matching `filter`, fetched page by page at the largest page size the server allows. Stops
 * at the total the first page announced (rows arriving meanwhile are left for the next export); a capped total
 * ("1,000+", decision 109) is no limit: the export then reads until a page comes back short.
 */
export async function fetchAllMail(filter: MailFilter, pageSize: number = PAGINATION.maxLimit): Promise<MailSummary[]> {
  const rows: MailSummary[] = [];
  let total = Infinity;
  while (rows.length < total) {
    const page = await getMailList(filter, { limit: pageSize, offset: rows.length });
    if (total === Infinity && !page.total_capped) total = page.total;
    rows.push(...page.items);
    if (page.items.length < pageSize) break;
  }
  return rows.slice(0, total);
}

/** Export CSV of every message matching the filter: the file is saved; the answer says how many and its name. */
export function useExportMail() {
  return useMutation({
    mutationFn: async (filter: MailFilter) => {
      const rows = await fetchAllMail(filter);
      const fileName = datedFileName('mailbox', 'csv');
      downloadCsv(fileName, mailCsv(rows));
      return { count: rows.length, fileName };
    },
  });
}
