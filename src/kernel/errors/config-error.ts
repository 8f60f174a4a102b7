import type { z } from 'zod';

/** A configuration mistake the operator must fix: the message names the file (or variable) and the field. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** "field \"options.model.0\": expected string, received number; ..." */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : '(top level)';
      // Zod names JavaScript's values ("received undefined", "received NaN"); people read words.
      const message = issue.message
        .replace(/^Invalid input: /, '')
        .replace(/^expected (.+), received undefined$/, 'missing (expected $1)')
        .replace(/, received NaN$/, ', received something that is not a number');
      return `field "${field}": ${message}`;
    })
    .join('; ');
}

/**
 * The exit status of a start the setup prevents (a bad value, a refused token or password):
 * sysexits' EX_CONFIG, so a service manager can tell it from a crash and not restart it
 * (systemd: `RestartPreventExitStatus=78`).
 */
export const EX_CONFIG = 78;
