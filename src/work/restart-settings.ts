import { onOff, wholeNumber } from '../kernel/settings/variables.ts';

/**
 * What a restart does with work in flight: on SIGTERM, how long running turns and runs may
 * finish (BRIDGE_DRAIN_SECONDS), and whether work it interrupted is resumed at the next start
 * (BRIDGE_RESUME_INTERRUPTED) rather than announced as interrupted.
 */
export interface RestartSettings {
  drainMs: number;
  resume: boolean;
}

export function restartSettings(env: NodeJS.ProcessEnv): RestartSettings {
  return { drainMs: wholeNumber(env, 'BRIDGE_DRAIN_SECONDS', 60, 0) * 1000, resume: onOff(env, 'BRIDGE_RESUME_INTERRUPTED', true) };
}
