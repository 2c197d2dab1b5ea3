import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { distributorLoginRequest, passwordForgotRequest } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { describeError } from '../../../lib/error-message';
import { useRequestPasswordReset } from '../api/distributor-password';
import { useSignInDistributor } from '../api/sign-in';

type FieldErrors = Partial<Record<'email' | 'password', string>>;

function fieldErrors(
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if ((key === 'email' || key === 'password') && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/** What went wrong, for the form: the server's message (e.g. wrong password, locked, too many tries). */
function failureText(error: unknown): string {
  return describeError(error).message;
}

/** Rendered by the password-reset page when it sends the distributor back here. */
export interface DistributorLoginState {
  readonly passwordReset?: boolean;
}

function SignInForm({ onForgot }: { readonly onForgot: (email: string) => void }) {
  const navigate = useNavigate();
  const location = useLocation();
  const passwordReset = (location.state as DistributorLoginState | null)?.passwordReset === true;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const login = useSignInDistributor();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = distributorLoginRequest.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    login.mutate(parsed.data, { onSuccess: (path) => void navigate(path) });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="distributor-title">
      <Stack gap="md">
        <Title order={1} size="h2" id="distributor-title">
          Distributor sign-in
        </Title>
        {passwordReset && (
          <Alert color="green" title="Password changed">
            Your password has been reset. Sign in with the new password.
          </Alert>
        )}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          withAsterisk={false}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.email}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          withAsterisk={false}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
        />
        <Button type="submit" size="md" fullWidth loading={login.isPending}>
          Sign in
        </Button>
        <div aria-live="assertive">
          {login.isError && (
            <Text c="red" fw={500}>
              {failureText(login.error)}
            </Text>
          )}
        </div>
        <Anchor component="button" type="button" size="sm" onClick={() => onForgot(email)} w="fit-content">
          Forgot password?
        </Anchor>
      </Stack>
    </form>
  );
}

function ForgotPasswordForm({ initialEmail, onBack }: { readonly initialEmail: string; readonly onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | undefined>();
  const request = useRequestPasswordReset();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordForgotRequest.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter your e-mail address.');
      return;
    }
    setError(undefined);
    request.mutate(parsed.data.email);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="forgot-title">
      <Stack gap="md">
        <Title order={1} size="h2" id="forgot-title">
          Reset your password
        </Title>
        {request.isSuccess ? (
          <Text role="status">
            If a distributor account exists for {email}, we have sent it a link to reset the password. The link works
            once and expires; check your inbox.
          </Text>
        ) : (
          <>
            <Text size="sm" c="gray.7">
              Enter the e-mail you sign in with. We will send you a link to choose a new password.
            </Text>
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              required
              withAsterisk={false}
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={error}
            />
            <Button type="submit" size="md" fullWidth loading={request.isPending}>
              Send reset link
            </Button>
            <div aria-live="assertive">
              {request.isError && (
                <Text c="red" fw={500}>
                  {failureText(request.error)}
                </Text>
              )}
            </div>
          </>
        )}
        <Anchor component="button" type="button" size="sm" onClick={onBack} w="fit-content">
          Back to sign-in
        </Anchor>
      </Stack>
    </form>
  );
}

/** /distributor — the distributors' own sign-in (spec §2): e-mail and password; afterwards /order. */
export default function DistributorLoginPage() {
  const [forgot, setForgot] = useState<{ readonly email: string } | null>(null);
  return (
    <Center mih="60vh">
      <Paper component="section" withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        {forgot ? (
          <ForgotPasswordForm initialEmail={forgot.email} onBack={() => setForgot(null)} />
        ) : (
          <SignInForm onForgot={(email) => setForgot({ email })} />
        )}
      </Paper>
    </Center>
  );
}
