/** Placeholder: being built (issue 7). */
export default function StoreInfoPage() {
  return null;
}
