import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FilePicker, formatBytes, readPickedFile, type PickedFile } from './file-picker';

function renderPicker(props: Partial<Parameters<typeof FilePicker>[0]> = {}) {
  const onChange = vi.fn<(files: PickedFile[]) => void>();
  render(
    <MantineProvider>
      <FilePicker label="Business license" onChange={onChange} {...props} />
    </MantineProvider>,
  );
  return { onChange, input: screen.getByLabelText('Business license') as HTMLInputElement };
}

describe('readPickedFile', () => {
  it('reads name, size, type and base64 content', async () => {
    const file = new File(['hello'], 'note.txt', { type: 'text/plain' });
    await expect(readPickedFile(file)).resolves.toEqual({
      name: 'note.txt',
      size: 5,
      type: 'text/plain',
      base64: 'aGVsbG8=',
    });
  });
});

describe('FilePicker', () => {
  it('is a labelled file input that hands over the chosen files, read', async () => {
    const { onChange, input } = renderPicker({ multiple: true, accept: '.png,.pdf' });
    expect(input.type).toBe('file');
    expect(input.accept).toBe('.png,.pdf');

    await userEvent.upload(input, [
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }),
      new File(['%PDF-1.7'], 'license.pdf', { type: 'application/pdf' }),
    ]);

    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(onChange.mock.calls[0]?.[0]).toEqual([
      { name: 'logo.png', size: 4, type: 'image/png', base64: 'iVBORw==' },
      { name: 'license.pdf', size: 8, type: 'application/pdf', base64: 'JVBERi0xLjc=' },
    ]);
    expect(screen.getByText('logo.png (4 bytes)')).toBeTruthy();
  });

  it('leaves out a file over the size limit and says so', async () => {
    const { onChange, input } = renderPicker({ maxBytes: 4 });
    await userEvent.upload(input, new File(['too large'], 'big.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith([]));
    expect(screen.getByText('big.pdf is larger than 4 bytes. Choose a smaller file.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain('-error');
  });

  it('shows an error from the form', () => {
    const { input } = renderPicker({ error: 'The server refused the file.' });
    expect(screen.getByText('The server refused the file.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('formats sizes', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(2048)).toBe('2 kB');
    expect(formatBytes(5_242_880)).toBe('5.0 MB');
  });
});
