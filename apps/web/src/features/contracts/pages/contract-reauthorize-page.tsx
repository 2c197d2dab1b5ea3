/** Placeholder: being built (issue 7). */
export default function ContractReauthorizePage() {
  return null;
}
