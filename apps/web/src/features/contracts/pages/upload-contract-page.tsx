import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { validateUpload } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { describeError } from '../../../lib/error-message';
import { useSession } from '../../../lib/session';
import { uploadContract } from '../api/contracts';

/**
 * #/upload-contract (staff): upload a contract the merchant signed on paper (pdf, jpeg, png or gif ≤ 5 MB) for an order
 * waiting for its signature; the order then moves on as if signed (decision 082).
 */
export default function UploadContractPage() {
  const { token } = useSession();
  const [params] = useSearchParams();
  const [orderId, setOrderId] = useState(params.get('order') ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  if (!token) {
    return (
      <Alert color="yellow" title="Sign in first" maw={640}>
        Uploading a signed contract is for staff.{' '}
        <Anchor component={Link} to="/login">
          Sign in
        </Anchor>{' '}
        and open this page again.
      </Alert>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    const id = Number(orderId);
    if (!Number.isInteger(id) || id <= 0) problems.order = 'Enter the order number (for example 700123).';
    if (!file) problems.file = 'Choose the signed contract file.';
    else {
      const check = validateUpload({ kind: 'contract', fileName: file.name, contentType: file.type, size: file.size });
      if (!check.ok) problems.file = check.message;
    }
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const contract = await uploadContract(id, file!);
      setDone(`Contract v${contract.version_no} of order ${id} is uploaded; the order moved on to its approval queue.`);
      notifications.show({
        color: 'green',
        title: 'Contract uploaded',
        message: `Order ${id} moved on to its approval queue.`,
      });
    } catch (error) {
      const said = describeError(error);
      setErrors({ file: said.message });
      notifications.show({ color: 'red', title: said.title, message: said.message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        Upload a signed contract
      </Title>
      {done && (
        <Alert color="green" role="status">
          {done}{' '}
          <Anchor component={Link} to="/order">
            Back to the order list
          </Anchor>
        </Alert>
      )}
      <form onSubmit={(e) => void submit(e)} aria-label="Upload a signed contract" noValidate>
        <Stack gap="sm">
          <TextInput
            label="Order number"
            value={orderId}
            onChange={(e) => setOrderId(e.currentTarget.value)}
            error={errors.order}
            w={220}
          />
          <div>
            <label htmlFor="contract-file">
              <Text size="sm" fw={500}>
                Signed contract (pdf, jpeg, png or gif, at most 5 MB)
              </Text>
            </label>
            <input
              id="contract-file"
              type="file"
              accept=".pdf,.jpg,.jpeg,.png,.gif,application/pdf,image/jpeg,image/png,image/gif"
              onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            />
            {errors.file && (
              <Text c="red" size="sm" role="alert">
                {errors.file}
              </Text>
            )}
          </div>
          <Button type="submit" loading={busy} w="fit-content">
            Upload contract
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
