import { BUSINESS_DATE_HEADER, calendarDayIn, DEFAULT_BUSINESS_TIME_ZONE, isIsoDay } from '@pos/domain';

/*
 * The business day (issue 30): every API answer carries the server's day (x-business-date, in BILLING_TIME_ZONE);
 * the app keeps the last one and uses it wherever a form proposes or limits "today". Before the first answer, the
 * day in the provider's default zone — never the browser's own calendar.
 */

let serverDay: { day: string; at: number } | null = null;

/** Notes the business day an API answer carried. */
export function noteBusinessDay(headers: Headers): void {
  const day = headers.get(BUSINESS_DATE_HEADER);
  if (isIsoDay(day)) serverDay = { day, at: Date.now() };
}

/** Today in the provider's time zone, as YYYY-MM-DD: the server's if it said so in the last hour. */
export function businessToday(now: Date = new Date()): string {
  if (serverDay && Math.abs(now.getTime() - serverDay.at) < 3_600_000) return serverDay.day;
  return calendarDayIn(now, DEFAULT_BUSINESS_TIME_ZONE);
}

/** Tests: forget what the server said. */
export function resetBusinessDayForTests(): void {
  serverDay = null;
}
