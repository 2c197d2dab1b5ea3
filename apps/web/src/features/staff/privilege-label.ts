/** A privilege's name for people: 'customer_details_view' → 'Customer details view', 'ar_approvals' → 'AR approvals'. */
export function privilegeLabel(name: string): string {
  const words = name.split('_').filter(Boolean);
  return words.map((w, i) => (w === 'ar' ? 'AR' : i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}
