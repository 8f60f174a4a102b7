import { execFileSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';

/** Why CLIs cannot be put in walls here (no bubblewrap or socat); undefined when they can. */
export function cannotWall(): string | undefined {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'needs bubblewrap and socat (sudo bash scripts/test-setup.sh installs them)';
  }
}

/** What the fake CLI's `escape` answers: for each attempt, "ok: …" or "refused: …". */
export type Escape = {
  keys: string[];
  model?: string;
  pids: number;
  environ: string;
  read: Record<string, string>;
  write: Record<string, string>;
  direct: Record<string, string>;
  proxied: Record<string, string>;
};

/** The `escape` answer in a message (a turn's answer, a run's announcement). */
export function escapeIn(text: string): Escape {
  return JSON.parse(/\{"keys".*\}/.exec(text)![0]) as Escape;
}

/** This machine's address on its network, where a server outside the sandbox listens (loopback is refused unless named). */
export function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((info) => info && !info.internal && info.family === 'IPv4')?.address;
}
