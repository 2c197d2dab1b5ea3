import { Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';

export interface SignaturePadHandle {
  /** The drawing as a PNG data URL, or null when nothing was drawn. */
  toPng(): string | null;
  clear(): void;
  /** Write `name` in a handwriting-like font (the keyboard alternative to drawing). */
  writeName(name: string): void;
}

const WIDTH = 480;
const HEIGHT = 140;

/** A box to sign in with a mouse, pen or finger; "Use my typed name as my signature" is the keyboard way. */
export function SignaturePad({
  ref,
  onChange,
}: {
  readonly ref: Ref<SignaturePadHandle>;
  readonly onChange: (drawn: boolean) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawn = useRef(false);
  const drawing = useRef(false);

  const context = () => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx) {
      ctx.lineWidth = 2.5;
      ctx.lineCap = 'round';
      ctx.strokeStyle = '#1a1b4b';
      ctx.fillStyle = '#1a1b4b';
    }
    return ctx;
  };
  const mark = (value: boolean) => {
    drawn.current = value;
    onChange(value);
  };

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const point = (e: PointerEvent) => {
      const r = el.getBoundingClientRect();
      return [((e.clientX - r.left) * WIDTH) / r.width, ((e.clientY - r.top) * HEIGHT) / r.height] as const;
    };
    const down = (e: PointerEvent) => {
      drawing.current = true;
      el.setPointerCapture?.(e.pointerId);
      const ctx = context();
      const [x, y] = point(e);
      ctx?.beginPath();
      ctx?.moveTo(x, y);
    };
    const move = (e: PointerEvent) => {
      if (!drawing.current) return;
      const ctx = context();
      const [x, y] = point(e);
      ctx?.lineTo(x, y);
      ctx?.stroke();
      if (!drawn.current) mark(true);
    };
    const up = () => {
      drawing.current = false;
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointerleave', up);
    return () => {
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointerleave', up);
    };
  });

  const clear = () => {
    context()?.clearRect(0, 0, WIDTH, HEIGHT);
    mark(false);
  };
  useImperativeHandle(ref, () => ({
    toPng: () => (drawn.current && canvas.current ? canvas.current.toDataURL('image/png') : null),
    clear,
    writeName: (name: string) => {
      const ctx = context();
      if (!ctx || !name.trim()) return;
      ctx.clearRect(0, 0, WIDTH, HEIGHT);
      ctx.font = 'italic 40px "Brush Script MT", "Segoe Script", cursive';
      ctx.fillText(name.trim(), 16, HEIGHT / 2 + 14, WIDTH - 32);
      mark(true);
    },
  }));

  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="signature-label">
        Signature
      </Text>
      <canvas
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-labelledby="signature-label"
        style={{
          border: '1px solid #adb5bd',
          borderRadius: 6,
          touchAction: 'none',
          maxWidth: '100%',
          background: '#fff',
          cursor: 'crosshair',
        }}
      />
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={clear}>
          Clear signature
        </Button>
      </Group>
    </Stack>
  );
}
