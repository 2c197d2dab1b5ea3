/**
 * Merchant id (MID) format, decision 030: 12 to 16 digits after removing spaces and dashes, not all zeros.
 * US processors issue 12–16 digit MIDs (e.g. the demo seed's 12-digit '8…' MIDs, First Data/Fiserv 15 or 16,
 * TSYS 16). The web's "Validate MID" form and the CRM adapter share it.
 */
export const MID_MIN_DIGITS = 12;
export const MID_MAX_DIGITS = 16;

export const MID_FORMAT_MESSAGE = `A MID is ${MID_MIN_DIGITS} to ${MID_MAX_DIGITS} digits (spaces and dashes are ignored).`;

/** '8000 0000-1234' → '800000001234' (spaces and dashes removed). */
export function normalizeMid(input: string): string {
  return input.replace(/[\s-]+/g, '');
}

export type MidFormatCheck = { ok: true; mid: string } | { ok: false; reason: string };

export function checkMidFormat(input: string): MidFormatCheck {
  const mid = normalizeMid(input);
  if (mid === '') return { ok: false, reason: 'Enter the MID.' };
  const digits = new RegExp(`^[0-9]{${MID_MIN_DIGITS},${MID_MAX_DIGITS}}$`);
  if (!digits.test(mid)) return { ok: false, reason: MID_FORMAT_MESSAGE };
  if (/^0+$/.test(mid)) return { ok: false, reason: 'A MID cannot be all zeros.' };
  return { ok: true, mid };
}
