/** Placeholder: being built (issue 7). */
export default function ConfirmationPage() {
  return null;
}
