/** Placeholder: being built (issue 7). */
export default function SaleSummaryPage() {
  return null;
}
