import { Input, List, Text } from '@mantine/core';
import { UPLOAD_MAX_BYTES } from '@pos/domain';
import { useId, useState, type ChangeEvent } from 'react';

/** A chosen file read into memory (spec §2): name, size in bytes, declared type and base64 content. */
export interface PickedFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  /** The content, base64-encoded, without a `data:` prefix. */
  readonly base64: string;
}

/** Read one file into a PickedFile. */
export function readPickedFile(file: File): Promise<PickedFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      const comma = url.indexOf(',');
      resolve({ name: file.name, size: file.size, type: file.type, base64: comma >= 0 ? url.slice(comma + 1) : '' });
    };
    reader.readAsDataURL(file);
  });
}

/** "4.2 MB", "512 kB", "18 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

export interface FilePickerProps {
  readonly label: string;
  readonly description?: string;
  /** The input's accept attribute, e.g. from the domain's `uploadAccept(kind)`. */
  readonly accept?: string;
  readonly multiple?: boolean;
  readonly required?: boolean;
  readonly disabled?: boolean;
  /** Larger files are refused with a message (default: the 5 MB upload limit). */
  readonly maxBytes?: number;
  /** An error from the form (e.g. the server refused the file). */
  readonly error?: string;
  /** The files read, every time the choice changes. */
  readonly onChange: (files: PickedFile[]) => void;
}

/**
 * The file-picker widget of spec §2: reads the chosen files into name, size, type and base64 content and
 * hands them to `onChange`. Files over `maxBytes` are left out and named in the error.
 */
export function FilePicker({
  label,
  description,
  accept,
  multiple = false,
  required,
  disabled,
  maxBytes = UPLOAD_MAX_BYTES,
  error,
  onChange,
}: FilePickerProps) {
  const id = useId();
  const [picked, setPicked] = useState<readonly PickedFile[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.currentTarget.files ?? []);
    const tooLarge = chosen.filter((f) => f.size > maxBytes);
    const fitting = chosen.filter((f) => f.size <= maxBytes);
    setReading(true);
    try {
      const files = await Promise.all(fitting.map(readPickedFile));
      setPicked(files);
      setProblem(
        tooLarge.length > 0
          ? `${tooLarge.map((f) => f.name).join(', ')} ${tooLarge.length === 1 ? 'is' : 'are'} larger than ${formatBytes(maxBytes)}. Choose a smaller file.`
          : null,
      );
      onChange(files);
    } catch {
      setPicked([]);
      setProblem('The file could not be read. Choose it again.');
      onChange([]);
    } finally {
      setReading(false);
    }
  };

  const shownError = problem ?? error;
  const describedBy = [description ? `${id}-description` : null, shownError ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');

  return (
    <Input.Wrapper
      id={id}
      label={label}
      description={description}
      required={required}
      error={shownError}
      descriptionProps={{ id: `${id}-description` }}
      errorProps={{ id: `${id}-error` }}
    >
      <div>
        <input
          id={id}
          type="file"
          accept={accept}
          multiple={multiple}
          required={required}
          disabled={disabled}
          aria-invalid={Boolean(shownError)}
          aria-describedby={describedBy || undefined}
          aria-busy={reading}
          onChange={(e) => void choose(e)}
        />
        {picked.length > 0 && (
          <List size="sm" mt={4} aria-label={`Chosen for ${label}`}>
            {picked.map((f) => (
              <List.Item key={`${f.name}:${f.size}`}>
                <Text component="span" size="sm">
                  {f.name} ({formatBytes(f.size)})
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </div>
    </Input.Wrapper>
  );
}
