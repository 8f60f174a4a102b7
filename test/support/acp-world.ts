import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

export const FAKE_ACP_AGENT = fileURLToPath(new URL('../fake-acp/fake-acp-agent.mjs', import.meta.url));

/** What the fake ACP agent logged: each request it had, and each permission answer it got. */
export interface AcpLogEntry {
  pid: number;
  method?: string;
  event?: string;
  sessionId?: string;
  text?: string;
  /** The mode a `session/set_mode` asked for. */
  modeId?: string;
  outcome?: { outcome: string; optionId?: string };
  /** Its MCP servers: over http (`url`), or a program it starts (`command`, its `args` and `env`). */
  mcpServers?: { name: string; type?: string; url?: string; command?: string; args?: string[]; env?: { name: string; value: string }[] }[];
  /** The argv a stdio MCP server of it ran with (`mcp-spawn`). */
  argv?: string[];
  clientCapabilities?: Record<string, unknown>;
}

export interface AcpWorld {
  world: TelegramWorld;
  log(): Promise<AcpLogEntry[]>;
  stop(): Promise<void>;
}

/**
 * The bridge as a real process whose CLIs are fake ACP agents of its `clis.json`, one entry
 * each (the default `fake-acp`, and whatever `agents` adds, each with its own environment), all
 * logging to one file and keeping their sessions in one folder.
 */
export async function startAcpWorld(
  env: Record<string, string> = {},
  agents: Record<string, { env?: Record<string, string>; openTimeoutSeconds?: number }> = {},
  dataFiles: Record<string, string> = {},
): Promise<AcpWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-acp-'));
  const logFile = join(dir, 'log.jsonl');
  // The bridge's own opening deadline unless an agent sets one: a node process may take seconds
  // to start on a loaded machine, and only the test of the deadline wants it short.
  const entry = ({ env: extra = {}, openTimeoutSeconds }: { env?: Record<string, string>; openTimeoutSeconds?: number }) => ({
    command: FAKE_ACP_AGENT,
    args: ['--acp'],
    env: { FAKE_ACP_LOG: logFile, FAKE_ACP_STATE: join(dir, 'sessions'), ...extra },
    ...(openTimeoutSeconds ? { openTimeoutSeconds } : {}),
  });
  const clis = { 'fake-acp': entry({}), ...Object.fromEntries(Object.entries(agents).map(([id, agent]) => [id, entry(agent)])) };
  const world = await startTelegramWorld({ BRIDGE_DEFAULT_CLI: 'fake-acp', ...env }, { dataFiles: { ...dataFiles, 'clis.json': JSON.stringify(clis) } });
  return {
    world,
    async log() {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AcpLogEntry);
    },
    async stop() {
      await world.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
