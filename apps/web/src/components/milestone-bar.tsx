import { Box, Text } from '@mantine/core';
import type { MilestoneProgress } from '../lib/header-state';
import classes from './milestone-bar.module.css';

/** The order-flow progress bar (spec §2): steps in order, the current one marked. */
export function MilestoneBar({ progress }: { readonly progress: MilestoneProgress }) {
  return (
    <Box component="nav" aria-label="Order progress" className={classes.bar}>
      <ol className={classes.steps}>
        {progress.milestones.map((step, index) => {
          const state = index < progress.current ? 'done' : index === progress.current ? 'current' : 'todo';
          return (
            <li
              key={step.routeId}
              className={classes.step}
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className={classes.marker} aria-hidden="true">
                {index + 1}
              </span>
              <Text component="span" size="sm" fw={state === 'current' ? 700 : 500}>
                {step.label}
              </Text>
            </li>
          );
        })}
      </ol>
    </Box>
  );
}
