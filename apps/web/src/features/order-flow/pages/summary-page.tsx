/** Placeholder: being built (issue 7). */
export default function SummaryPage() {
  return null;
}
