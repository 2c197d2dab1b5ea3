import {
  createTheme,
  darken,
  luminance,
  type AlertProps,
  type AnchorProps,
  type CSSVariablesResolver,
  type DrawerProps,
  type MantineTheme,
  type ModalProps,
  type NotificationProps,
  type TableScrollContainerProps,
} from '@mantine/core';

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
  // Black text above this luminance, white below: 0.179 is where both give the same contrast (WCAG's formula).
  luminanceThreshold: 0.179,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  // Plain objects, not Modal.extend(…): importing the components here would put Modal, Drawer and their focus trap
  // and scroll area into the first route's bundle (the sign-in page needs none of them).
  components: {
    // Every close button has a name (Mantine draws an unnamed ×).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps> },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<DrawerProps> },
    Alert: { defaultProps: { closeButtonLabel: 'Close' } satisfies Partial<AlertProps> },
    // A link is told from the text around it by more than its colour (WCAG 1.4.1; ids in lists are links, issue 30).
    Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
    // A badge is never cut to "ACTI…" (issue 30): its whole word is its smallest width, so a table column that holds
    // it is at least that wide (the table scrolls instead).
    Badge: {
      styles: {
        root: { overflow: 'visible', minWidth: 'max-content' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    },
    // A table wider than the screen scrolls sideways: its scroller takes the focus so the keyboard can scroll it.
    TableScrollContainer: {
      defaultProps: {
        scrollAreaProps: { viewportProps: { tabIndex: 0 } },
      } satisfies Partial<TableScrollContainerProps>,
    },
    Notification: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close the notification' },
      } satisfies Partial<NotificationProps>,
      // Mantine draws a titled notification's text in gray-6 (3.3:1 on white); the dimmed colour reads.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
  },
});

const contrast = (a: string, b: string) => {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
};

/** `color` darkened just enough to reach 4.6:1 on each of `backgrounds`. */
function readable(color: string, backgrounds: readonly string[]): string {
  for (let amount = 0; amount < 1; amount += 0.05) {
    const darker = darken(color, amount);
    if (backgrounds.every((b) => contrast(darker, b) >= 4.6)) return darker;
  }
  return '#000';
}

/**
 * The light scheme's text colours Mantine derives from lighter shades (gray-6 ≈ 3.3:1, red-6 ≈ 3.3:1 on white), and
 * the table rows' light backgrounds (striped gray-0, hovered gray-1, selected blue-1).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t: MantineTheme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-9)',
    ...Object.fromEntries(
      Object.entries(t.colors)
        .filter(([, palette]) => palette.length >= 10)
        .flatMap(([name, palette]) => [
          // The light variant's text on its hover background (shade 2).
          [`--mantine-color-${name}-light-color`, readable(palette[9]!, [palette[2]!])],
          // Coloured text (c="red"), also on striped, hovered and selected table rows.
          [`--mantine-color-${name}-text`, readable(palette[8]!, [t.colors.gray[1]!, t.colors.blue[1]!])],
        ]),
    ),
  },
  dark: {},
});
