/** Placeholder: being built (issue 7). */
export default function PaymentPlanMethodPage() {
  return null;
}
