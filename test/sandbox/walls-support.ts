import { execFileSync } from 'node:child_process';

/** Why CLIs cannot be put in walls here (no bubblewrap or socat); undefined when they can. */
export function cannotWall(): string | undefined {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'needs bubblewrap and socat (apt-get install bubblewrap socat; .ci/run installs them)';
  }
}
