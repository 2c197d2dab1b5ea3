/** Query keys of the admin tools; one prefix per list, so invalidation reaches every page and filter. */
export const adminKeys = {
  all: ['admin'] as const,
  mail: () => [...adminKeys.all, 'mail'] as const,
  mailList: (filter: object) => [...adminKeys.mail(), 'list', filter] as const,
  mailMessage: (id: number) => [...adminKeys.mail(), 'message', id] as const,
  jobs: () => [...adminKeys.all, 'jobs'] as const,
  jobList: (filter: object) => [...adminKeys.jobs(), 'list', filter] as const,
  billingRuns: () => [...adminKeys.all, 'billing-runs'] as const,
  billingRunList: (page: number) => [...adminKeys.billingRuns(), 'list', page] as const,
  taxRates: () => [...adminKeys.all, 'tax-rates'] as const,
};
