import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { PASSWORD_MIN_LENGTH, PASSWORD_PROBLEM_MESSAGES, passwordProblems, routePath } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { useResetPassword } from '../api/distributor-password';
import type { DistributorLoginState } from './distributor-login-page';

export const PASSWORDS_DIFFER = 'The passwords do not match.';

/**
 * /distributor/passsword/reset/{tok} (the spec's spelling; /password/ too) — a distributor chooses a new
 * password from the e-mailed link. The policy is the domain's `passwordProblems`; afterwards /distributor.
 */
export default function DistributorPasswordResetPage() {
  const { tok = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<readonly string[]>([]);
  const [mismatch, setMismatch] = useState(false);

  const reset = useResetPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordProblems(password).map((p) => PASSWORD_PROBLEM_MESSAGES[p]);
    setProblems(found);
    const differ = password !== confirm;
    setMismatch(differ);
    if (found.length === 0 && !differ)
      reset.mutate(
        { token: tok, password },
        {
          onSuccess: () => {
            const state: DistributorLoginState = { passwordReset: true };
            void navigate(routePath('distributor'), { state });
          },
        },
      );
  };

  return (
    <Center mih="60vh">
      <Paper component="section" withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} noValidate aria-labelledby="reset-title">
          <Stack gap="md">
            <Title order={1} size="h2" id="reset-title">
              Choose a new password
            </Title>
            <PasswordInput
              label="New password"
              description={`At least ${PASSWORD_MIN_LENGTH} characters, with a letter and a digit.`}
              autoComplete="new-password"
              required
              withAsterisk={false}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={problems.length > 0 ? problems.join(' ') : undefined}
            />
            <PasswordInput
              label="Confirm new password"
              autoComplete="new-password"
              required
              withAsterisk={false}
              value={confirm}
              onChange={(e) => setConfirm(e.currentTarget.value)}
              error={mismatch ? PASSWORDS_DIFFER : undefined}
            />
            <Button type="submit" size="md" fullWidth loading={reset.isPending}>
              Reset password
            </Button>
            <div aria-live="assertive">
              {reset.isError && (
                <Text c="red" fw={500}>
                  {describeError(reset.error).message}
                  {isApiError(reset.error) && (reset.error.status === 404 || reset.error.status === 410) && (
                    <>
                      {' '}
                      <Anchor component={Link} to={routePath('distributor')}>
                        Ask for a new link
                      </Anchor>{' '}
                      with “Forgot password?” on the sign-in page.
                    </>
                  )}
                </Text>
              )}
            </div>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
