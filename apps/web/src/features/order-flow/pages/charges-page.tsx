/** Placeholder: being built (issue 7). */
export default function ChargesPage() {
  return null;
}
