import { afterEach } from 'vitest';
import { finishA11yAudits, formatA11yProblems, takeA11yProblems } from './a11y';

/*
 * Every journey's tests end with the accessibility audit of what its pages showed (decision 136): the audits run
 * after each navigation (./a11y.ts); here the open pages are audited once more and what was found fails the test.
 * A test that already failed is not audited again (its own failure is the news).
 */
afterEach(async (context) => {
  const failed = context.task.result?.state === 'fail';
  await finishA11yAudits(!failed);
  const found = takeA11yProblems();
  if (!failed && found.length > 0) throw new Error(formatA11yProblems(found));
});
