import { Button, type MantineSize } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';

export interface CsvButtonProps {
  /** The button's name, e.g. 'Download figures as CSV'. */
  readonly label: string;
  /** The file name's start: 'orders-report' → 'orders-report-2026-11-22.csv'. */
  readonly fileName: string;
  readonly load: () => Promise<Blob>;
  readonly disabled?: boolean;
  /** 'xs' beside a table's caption (default); 'sm' for a report's own Export CSV. */
  readonly size?: MantineSize;
}

/** Downloads every row as CSV (the server streams them); a failure shows as a toast. */
export function CsvButton({ label, fileName, load, disabled, size = 'xs' }: CsvButtonProps) {
  const download = useMutation({
    mutationFn: load,
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName(fileName, 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });
  return (
    <Button
      variant="default"
      size={size}
      onClick={() => download.mutate()}
      loading={download.isPending}
      disabled={disabled}
    >
      {label}
    </Button>
  );
}
