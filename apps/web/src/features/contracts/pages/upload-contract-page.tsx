/** Placeholder: being built (issue 7). */
export default function UploadContractPage() {
  return null;
}
