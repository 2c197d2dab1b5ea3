/*
 * The SQL twins of the domain's tax rules (rules/taxes.ts, decision 127), for set-based statements (the billing run)
 * and single reads alike. Each takes SQL expressions for its inputs and yields one expression.
 */

/** The summed rate (basis points) in force on `day` for a state: the components of its latest version ≤ day; null if none. */
export function taxRateInForceSql(country: string, state: string, day: string): string {
  return `(select sum(v.rate_basis_points)::integer from tax_rate_versions v
    where v.country = ${country} and v.state = upper(${state})
      and v.effective_on = (select max(w.effective_on) from tax_rate_versions w
                            where w.country = ${country} and w.state = upper(${state}) and w.effective_on <= ${day}))`;
}

/** Whether a store holds an Arizona certificate valid on `day` (not revoked, expiring on or after it). */
export function certificateValidSql(storeId: string, day: string): string {
  return `exists (select 1 from tax_certificates tc
    where tc.store_id = ${storeId} and upper(tc.state) = 'AZ' and tc.revoked_at is null
      and tc.expires_on is not null and tc.expires_on >= ${day})`;
}
