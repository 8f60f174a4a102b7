/**
 * The environment of a short helper the bridge runs as another uid (mkdir, cp, sh as the agent
 * user or a sandbox's uid): nothing of the bridge's own. A process of that uid can read the
 * helper's /proc/<pid>/environ while it runs, so it must hold no token or key.
 */
export function helperEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C' };
}
