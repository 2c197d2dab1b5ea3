/** Placeholder: being built (issue 7). */
export default function ContractPage() {
  return null;
}
