import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { shownText, type TelegramWorld } from '../support/telegram-world.ts';

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

/**
 * A chat's `fetch:<url>` turns (the fake CLI's GET through its sandbox's proxy, as HTTPS clients
 * go): each call says one and gives the first line of its answer.
 */
export function fetchesIn(world: () => TelegramWorld, chat: number, say: (text: string) => unknown): (url: string) => Promise<string> {
  const fetches = () =>
    world()
      .telegram.botMessages(chat)
      .filter((m) => /^fetch: /.test(m.text ?? ''));
  return async (url) => {
    const before = fetches().length;
    say(`fetch:${url}`);
    const got = await world().telegram.waitFor(() => fetches()[before], 30_000);
    return shownText(got).split('\n')[0]!;
  };
}

/** The audit trail's entries so far. */
export async function auditEntries(dataDir: string): Promise<Record<string, string>[]> {
  return (await readFile(join(dataDir, 'audit.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>);
}
