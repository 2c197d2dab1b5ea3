import type { Milestone } from '@pos/domain';
import { useEffect, useSyncExternalStore } from 'react';

/**
 * What pages tell the header: the current country (a Canadian flag shows for 'CA', spec §2) and the
 * current order-flow milestone (the milestone bar shows only when one is current).
 */
export interface MilestoneProgress {
  /** The flow's steps, from the domain's `orderMilestones(...)`. */
  readonly milestones: readonly Milestone[];
  /** Index of the current step (`currentMilestoneIndex(...)`); the bar shows only when it is ≥ 0. */
  readonly current: number;
}

interface HeaderState {
  readonly country: string | null;
  readonly milestone: MilestoneProgress | null;
}

let state: HeaderState = { country: null, milestone: null };
const listeners = new Set<() => void>();

function update(next: Partial<HeaderState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getState = () => state;

export function setCountry(country: string | null): void {
  if (state.country !== country) update({ country });
}

export function setMilestone(milestone: MilestoneProgress | null): void {
  if (state.milestone !== milestone) update({ milestone });
}

export function useHeaderState(): HeaderState {
  return useSyncExternalStore(subscribe, getState, getState);
}

/** For pages: show `country` in the header while the page is mounted. */
export function usePageCountry(country: string | null | undefined): void {
  useEffect(() => {
    setCountry(country ?? null);
    return () => setCountry(null);
  }, [country]);
}

/** For order-flow pages: show `milestone` in the header while the page is mounted (keep it referentially stable). */
export function usePageMilestone(milestone: MilestoneProgress | null | undefined): void {
  useEffect(() => {
    setMilestone(milestone ?? null);
    return () => setMilestone(null);
  }, [milestone]);
}
