import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAdapterManifest, type Adapter } from '../../src/engine/adapters/load.ts';

export const FAKE_AGENT = fileURLToPath(new URL('../fake-cli/fake-agent.mjs', import.meta.url));
const FAKE_MANIFEST = fileURLToPath(new URL('../fixtures/adapters/fake.json', import.meta.url));

/** The test adapter, pointing at the scriptable fake CLI (see test/fake-cli/fake-agent.mjs). */
export function fakeAdapter(overrides: Partial<Adapter> = {}): Adapter {
  const manifest = parseAdapterManifest(readFileSync(FAKE_MANIFEST, 'utf8'), FAKE_MANIFEST);
  return { ...manifest, resolvedCommand: FAKE_AGENT, file: FAKE_MANIFEST, ...overrides };
}

export interface FakeCliWorld {
  dir: string;
  /** Environment for the fake CLI: where it logs its invocations and keeps sessions. */
  env: Record<string, string | undefined>;
  /** Every invocation so far: argv, cwd, prompt, resume id, pid, the names of its environment variables, when it started (ms since the epoch) and when its process began. */
  invocations(): Promise<
    {
      argv: string[];
      cwd: string;
      prompt: string;
      resume?: string;
      /** The session the turn ran in (with stream-json input, several turns of one process share it). */
      session: string;
      pid: number;
      /** The process that started it. */
      ppid: number;
      envNames: string[];
      startedAt: number;
      /** When its process began (before Node loaded the script): what start-up took is `startedAt` less this. */
      launchedAt: number;
      agents?: Record<string, Record<string, unknown>>;
      mcpServers?: string[];
    }[]
  >;
  /** The pids of invocations that reached `hang` with all their output written. */
  hanging(): Promise<number[]>;
  cleanup(): Promise<void>;
}

export async function fakeCliWorld(): Promise<FakeCliWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-cli-'));
  const log = join(dir, 'invocations.jsonl');
  return {
    dir,
    env: { ...process.env, FAKE_CLI_LOG: log, FAKE_CLI_STATE: dir },
    async invocations() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
    async hanging() {
      const text = await readFile(`${log}.hanging`, 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean).map(Number);
    },
    // Retries: a store's last atomic write may still be landing when a test ends.
    cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
}

/** True while a process with this pid exists (and is not a zombie we could still signal). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
