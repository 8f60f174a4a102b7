import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';

/**
 * Whose files or processes these are when that is not this process's user (the agent user, a
 * sandbox's uid): read only where they read themselves and written as them, never as the
 * bridge, so a link planted in their home reads or writes nothing they could not.
 */
export interface Owner {
  uid: number;
  gid: number;
}

/**
 * The environment of a short helper the bridge runs as another uid (mkdir, cp, sh as the agent
 * user or a sandbox's uid): nothing of the bridge's own. A process of that uid can read the
 * helper's /proc/<pid>/environ while it runs, so it must hold no token or key.
 */
export function helperEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C' };
}

/** Runs `command` as `owner` with a helper's environment (and `env`); its stdout. Failing, it throws (see helperFailure). */
export function runAs(
  owner: Owner,
  command: string,
  args: string[],
  options: Pick<ExecFileSyncOptions, 'cwd' | 'timeout' | 'stdio'> & { env?: Record<string, string> } = {},
): Buffer {
  return execFileSync(command, args, {
    uid: owner.uid,
    gid: owner.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
    env: { ...helperEnv(), ...options.env },
  });
}

/** Why a helper run failed, in its own words: its stderr, else the error's message. */
export function helperFailure(error: unknown): string {
  return String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
}
