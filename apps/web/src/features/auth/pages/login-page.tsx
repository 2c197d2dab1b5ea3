import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { SPINNER_MIN_DISPLAY_MS } from '@pos/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useNavigation, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { useAuthConfig } from '../api/auth-config';
import { useSignIn, type SignInInput } from '../api/sign-in';
import { DemoAccountPrompt } from '../components/demo-account-prompt';
import { loadGoogleIdentity } from '../lib/google-identity';
import { buildAuthorizeUrl, randomToken } from '../lib/oidc-redirect';
import { oneTapWanted } from '../lib/one-tap';

/** Spec §8: the sign-in failure text (shown in red and in an alert). */
export const AUTH_FAILED = 'Authentication failed.';

/**
 * /login — staff sign-in (spec §2, §4).
 * - The Sign in button opens the identity provider: the built-in provider's account page (local), or
 *   Google's button (google; Google Identity Services is loaded only in that mode).
 * - On first load, without a session (§4 rule), the one-tap prompt: Google's, or the demo-account card.
 * - The provider's credential (`#/login?id_token=…&state=…` on return, or from one-tap) creates the session;
 *   rules 1–7 pick the landing page. Failure: red 'Authentication failed.', an alert, no spinner (§8).
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const config = useAuthConfig();
  const { session } = useSession();
  const returnedToken = searchParams.get('id_token');
  const returnedState = searchParams.get('state');

  const [failure, setFailure] = useState<{ readonly attempt: number } | null>(null);
  const [oneTapOffered] = useState(() => returnedToken === null && oneTapWanted());
  const [oneTapDismissed, setOneTapDismissed] = useState(false);
  const [googleProblem, setGoogleProblem] = useState(false);
  /** Signed in and on the way to the landing page (this page unmounts, or comes back fresh). */
  const [leaving, setLeaving] = useState(false);
  const googleButton = useRef<HTMLDivElement>(null);
  const handledToken = useRef<string | null>(null);

  const fail = useCallback(() => setFailure((f) => ({ attempt: (f?.attempt ?? 0) + 1 })), []);

  const { mutate, isPending: signingIn } = useSignIn();
  const signIn = useCallback(
    (input: SignInInput) => {
      setFailure(null);
      mutate(input, {
        onSuccess: (path) => {
          if (!path) return;
          setLeaving(true);
          void navigate(path);
        },
        onError: fail,
      });
    },
    [mutate, navigate, fail],
  );

  // Back from the provider's page: take the credential out of the address bar, check it is the answer to
  // this tab's request (state, nonce), then sign in with it.
  useEffect(() => {
    if (returnedToken === null || handledToken.current === returnedToken) return;
    handledToken.current = returnedToken;
    navigate('/login', { replace: true });
    signIn({ via: 'redirect', idtoken: returnedToken, state: returnedState });
  }, [returnedToken, returnedState, navigate, signIn]);

  // §8: the alert comes once the spinner (shown at least SPINNER_MIN_DISPLAY_MS) has gone, so the page
  // behind it shows the red text and no spinner.
  useEffect(() => {
    if (!failure) return undefined;
    const timer = setTimeout(() => window.alert(AUTH_FAILED), SPINNER_MIN_DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [failure]);

  const provider = config.data?.provider;
  const clientId = config.data?.clientId;

  // Google mode only: load Google Identity Services, render its button, and offer its one-tap prompt.
  useEffect(() => {
    if (provider !== 'google' || !clientId) return undefined;
    let cancelled = false;
    loadGoogleIdentity()
      .then((gis) => {
        if (cancelled) return;
        const nonce = randomToken();
        gis.initialize({
          client_id: clientId,
          nonce,
          cancel_on_tap_outside: true,
          callback: ({ credential }) => signIn({ via: 'google', idtoken: credential, nonce }),
        });
        if (googleButton.current) {
          gis.renderButton(googleButton.current, {
            type: 'standard',
            theme: 'outline',
            size: 'large',
            text: 'signin_with',
            width: 320,
          });
        }
        if (oneTapOffered) gis.prompt();
      })
      .catch(() => {
        if (!cancelled) setGoogleProblem(true);
      });
    return () => {
      cancelled = true;
    };
  }, [provider, clientId, oneTapOffered, signIn]);

  const authorizeUrl = config.data?.authorizeUrl;
  const accounts = config.data?.accounts ?? [];
  const showDemoPrompt = oneTapOffered && !oneTapDismissed && provider === 'local' && accounts.length > 0 && !session;

  return (
    <Center mih="60vh">
      <Stack align="center" gap="lg" w="100%">
        <Paper
          component="section"
          withBorder
          shadow="sm"
          p="xl"
          radius="md"
          w="100%"
          maw={400}
          aria-labelledby="sign-in-title"
        >
          <Stack gap="md">
            <Title order={1} size="h2" id="sign-in-title">
              Sign in
            </Title>
            <Text c="gray.7" size="sm">
              Staff sign in with their company account.
            </Text>
            {provider === 'google' ? (
              <div ref={googleButton} />
            ) : (
              <Button
                type="button"
                size="md"
                fullWidth
                disabled={!authorizeUrl || signingIn}
                onClick={() => authorizeUrl && window.location.assign(buildAuthorizeUrl(authorizeUrl))}
              >
                Sign in
              </Button>
            )}
            {config.isError && (
              <Text c="red" size="sm">
                Sign-in is not available right now: its settings could not be loaded. Reload the page to try again.
              </Text>
            )}
            {googleProblem && (
              <Text c="red" size="sm">
                Google sign-in could not be loaded. Check your connection, then reload the page.
              </Text>
            )}
            {/* Once the sign-in and the way to the landing page are over (this page again, when the landing
                page is not built yet — docs/decisions/020). */}
            {session && !signingIn && !leaving && navigation.state === 'idle' && (
              <Text size="sm" role="status">
                You are signed in as {session.name} ({session.email}).
              </Text>
            )}
            <div aria-live="assertive">
              {failure && (
                <Text c="red" fw={500}>
                  {AUTH_FAILED}
                </Text>
              )}
            </div>
          </Stack>
        </Paper>
        {showDemoPrompt && (
          <DemoAccountPrompt
            accounts={accounts}
            disabled={signingIn}
            onPick={(email) => signIn({ via: 'demo', email })}
            onDismiss={() => setOneTapDismissed(true)}
          />
        )}
      </Stack>
    </Center>
  );
}
