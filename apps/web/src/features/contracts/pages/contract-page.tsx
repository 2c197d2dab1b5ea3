import { Alert, Anchor, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { TotalsTable } from '../../../components/totals-table';
import { describeError } from '../../../lib/error-message';
import { usePageCountry } from '../../../lib/header-state';
import { CONFIRMATION_KEY, getContractQueryOptions, signContract } from '../api/contracts';
import { SignaturePad, type SignaturePadHandle } from '../components/signature-pad';
import { DEAD_LINK_MESSAGE, isDeadLink, submitErrors } from '../lib/link-errors';
import { LinkProblem } from '../../../components/link-problem';
import { formatDateTime } from '../../../lib/format';

/**
 * #/contract/{tok} (public): the merchant reads the contract (summary and PDF), types their name, signs in the box
 * (or uses the typed name), agrees to sign electronically and signs; then #/confirmation.
 */
export default function ContractPage() {
  const tok = useParams().tok ?? '';
  const navigate = useNavigate();
  const view = useQuery(getContractQueryOptions(tok));
  const pad = useRef<SignaturePadHandle>(null);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const [signed, setSigned] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  usePageCountry(view.data?.country);

  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    const gone = isDeadLink(view.error);
    return (
      <LinkProblem heading="Your contract">{gone ? DEAD_LINK_MESSAGE : describeError(view.error).message}</LinkProblem>
    );
  }
  const c = view.data;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const png = pad.current?.toPng() ?? null;
    const problems: Record<string, string> = {};
    if (name.trim().length < 2) problems.signer_name = 'Type your full name.';
    if (!png) problems.signature_png = 'Draw your signature in the box, or use your typed name.';
    if (!consent) problems.consent = 'Tick the box to agree to sign electronically.';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const result = await signContract(tok, { signer_name: name.trim(), signature_png: png!, consent: true });
      sessionStorage.setItem(
        CONFIRMATION_KEY,
        JSON.stringify({ reference: result.unified_order_id, signer: result.signer_name, at: result.signed_at }),
      );
      void navigate('/confirmation');
    } catch (error) {
      setErrors(submitErrors(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={760}>
      <Title order={1} size="h2">
        Your contract — order {c.unified_order_id}
      </Title>
      <Text>
        {c.merchant_name} · {c.store_name} · contract version {c.version_no}
      </Text>
      <TotalsTable
        caption="What you are signing for"
        captionHidden
        currency={c.currency}
        lines={c.lines}
        totals={[{ label: 'Total', cents: c.total_cents, strong: true }]}
      />
      <Anchor href={c.pdf_url} target="_blank" rel="noopener">
        Open the contract (PDF)
      </Anchor>
      <form onSubmit={(e) => void submit(e)} aria-label="Sign the contract" noValidate>
        <Stack gap="sm">
          {errors._ && (
            <Alert color="red" role="alert">
              {errors._}
            </Alert>
          )}
          <TextInput
            label="Full name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.signer_name}
            autoComplete="name"
            maw={360}
          />
          <SignaturePad ref={pad} onChange={setSigned} />
          <Button
            variant="light"
            w="fit-content"
            size="xs"
            onClick={() => pad.current?.writeName(name)}
            disabled={name.trim().length < 2}
          >
            Use my typed name as my signature
          </Button>
          {errors.signature_png && (
            <Text c="red" size="sm" role="alert">
              {errors.signature_png}
            </Text>
          )}
          <Checkbox
            label="I have read the contract and agree to sign it electronically; my electronic signature has the same effect as a handwritten one."
            checked={consent}
            onChange={(e) => setConsent(e.currentTarget.checked)}
            error={errors.consent}
          />
          <Button type="submit" loading={busy} w="fit-content">
            Sign contract
          </Button>
          <Text size="xs" c="dimmed">
            {signed ? 'Signature ready.' : 'No signature yet.'} The link works until {formatDateTime(c.expires_at)}.
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}
