/** Distributor password policy: 12–128 characters, a letter and a digit, and not built on the e-mail's name. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordProblem = 'too_short' | 'too_long' | 'needs_letter' | 'needs_digit' | 'contains_email';

export const PASSWORD_PROBLEM_MESSAGES: Readonly<Record<PasswordProblem, string>> = {
  too_short: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
  too_long: `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
  needs_letter: 'Include at least one letter.',
  needs_digit: 'Include at least one digit.',
  contains_email: 'Do not use your e-mail name in the password.',
};

/** The problems with a password (empty when it is acceptable). */
export function passwordProblems(password: string, email?: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('too_short');
  if (password.length > PASSWORD_MAX_LENGTH) problems.push('too_long');
  if (!/\p{L}/u.test(password)) problems.push('needs_letter');
  if (!/\d/.test(password)) problems.push('needs_digit');
  const name = email?.split('@')[0]?.toLowerCase();
  if (name && name.length >= 3 && password.toLowerCase().includes(name)) problems.push('contains_email');
  return problems;
}
