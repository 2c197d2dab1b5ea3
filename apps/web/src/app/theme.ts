import { createTheme, darken, luminance, type CSSVariablesResolver, type MantineTheme } from '@mantine/core';

/*
 * Colours meet WCAG 2 AA contrast (4.5:1 for text; decision 136): the primary shade, the dimmed text, links and error
 * text are one or two shades darker than Mantine's defaults, filled colours pick black or white text by their
 * luminance (autoContrast), and the "light" variants' text (badges, active navigation links) is darkened until it
 * reads on the variant's hover background.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 5 },
  autoContrast: true,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
});

const contrast = (a: string, b: string) => {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
};

/** Shade 9 of `palette`, darkened just enough to reach 4.6:1 on shade 2 (the light variant's hover background). */
function readableOn(palette: readonly string[]): string {
  const background = palette[2]!;
  for (let amount = 0; amount < 1; amount += 0.05) {
    const color = darken(palette[9]!, amount);
    if (contrast(color, background) >= 4.6) return color;
  }
  return '#000';
}

/** The light scheme's text colours Mantine derives from lighter shades (gray-6 ≈ 3.3:1, red-6 ≈ 3.3:1 on white). */
export const cssVariablesResolver: CSSVariablesResolver = (t: MantineTheme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    ...Object.fromEntries(
      Object.entries(t.colors)
        .filter(([, palette]) => palette.length >= 10)
        .map(([name, palette]) => [`--mantine-color-${name}-light-color`, readableOn(palette)]),
    ),
  },
  dark: {},
});
