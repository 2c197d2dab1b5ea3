import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import classes from './detail-pane.module.css';

export interface DetailPaneProps {
  /** Names the pane: 'Invoice INV-2026-0004118'. */
  readonly label: string;
  /** Escape closes it (the panel's own close button does too). */
  readonly onClose: () => void;
  readonly children: ReactNode;
}

/**
 * The detail of a list's open row (issue 30's list kit), beside the list and always in view however far the list
 * was scrolled — not below it. Not modal: the list stays usable and another row opens in its place. Focus moves
 * into it when it opens, so a keyboard user is where the detail is; Escape closes it.
 */
export function DetailPane({ label, onClose, children }: DetailPaneProps) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.stopPropagation();
      onClose();
    }
  };
  return (
    <aside ref={ref} className={classes.pane} aria-label={label} tabIndex={-1} onKeyDown={onKeyDown}>
      {children}
    </aside>
  );
}
