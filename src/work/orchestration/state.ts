import { own } from '../../kernel/store/own.ts';

export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'stopped';

export interface StepState {
  status: StepStatus;
  /** The step's result, handed to the steps that depend on it. */
  summary?: string;
  error?: string;
}

/** Keyed by step id. A step with no entry is pending. */
export type StepStates = Record<string, StepState>;

export function statusOf(states: StepStates, id: string): StepStatus {
  return own(states, id)?.status ?? 'pending';
}
