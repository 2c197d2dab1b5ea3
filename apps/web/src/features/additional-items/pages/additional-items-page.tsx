/** Placeholder: being built (issue 7). */
export default function AdditionalItemsPage() {
  return null;
}
