import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { describeError } from '../../lib/error-message';
import { formatCount } from '../../lib/format';
import type { StreamProgress } from '../../lib/stream-download';

export interface ExportRun {
  /** Cancel pressed: stop reading, save nothing. */
  readonly signal: AbortSignal;
  /** A streamed export reports rows as they arrive. */
  readonly onProgress: (progress: StreamProgress) => void;
}

export interface ExportCsvButtonProps {
  /** Makes and saves the file; answers what was read when it knows (a streamed download). */
  readonly run: (ctx: ExportRun) => Promise<StreamProgress | void>;
  /** Nothing to export (an empty list). */
  readonly disabled?: boolean;
  /** Instead of "Export CSV". */
  readonly label?: string;
}

/**
 * Export CSV of a list (issue 30's list kit): the filtered rows, never just the page. While the file is made a
 * progress bar says how far it is ("1,200 of 5,000 rows" when the server streams it) with a Cancel button; then a
 * toast says how many rows were saved, or what went wrong and what to do.
 */
export function ExportCsvButton({ run, disabled = false, label = 'Export CSV' }: ExportCsvButtonProps) {
  const [progress, setProgress] = useState<StreamProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function start() {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ rows: 0, bytes: 0, total: null });
    try {
      const done = await run({ signal: controller.signal, onProgress: setProgress });
      notifications.show({
        color: 'green',
        title: 'Export ready',
        message: done
          ? `${formatCount(done.rows)} ${done.rows === 1 ? 'row' : 'rows'} saved as CSV.`
          : 'The CSV file was saved.',
      });
    } catch (error) {
      if (controller.signal.aborted) notifications.show({ title: 'Export cancelled', message: 'Nothing was saved.' });
      else {
        const { title, message } = describeError(error);
        notifications.show({ color: 'red', title, message, autoClose: 8000 });
      }
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }

  const percent = progress?.total ? Math.min(100, (progress.rows / progress.total) * 100) : 100;
  return (
    <Group justify="flex-end" align="center">
      {progress && (
        <Stack gap={4} w={320}>
          <Progress
            value={percent}
            animated={!progress.total}
            aria-label="Export progress"
            aria-valuetext={`${progress.rows} rows`}
          />
          <Text size="sm" role="status">
            {progress.total !== null
              ? `${formatCount(progress.rows)} of ${formatCount(progress.total)} rows`
              : progress.rows > 0
                ? `${formatCount(progress.rows)} rows`
                : 'Preparing the file…'}
          </Text>
        </Stack>
      )}
      {progress ? (
        <Button variant="default" color="red" onClick={() => abort.current?.abort()}>
          Cancel export
        </Button>
      ) : (
        <Button variant="default" onClick={() => void start()} disabled={disabled}>
          {label}
        </Button>
      )}
    </Group>
  );
}
