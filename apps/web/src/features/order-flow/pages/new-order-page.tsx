/** Placeholder: being built (issue 7). */
export default function NewOrderPage() {
  return null;
}
