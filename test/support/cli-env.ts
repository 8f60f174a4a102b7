// Per-test sandbox for running a real coding-agent CLI against the mock model:
// a throwaway HOME/TMPDIR, the CLI's config files pointing at the mock, and the
// env vars that keep it offline (see OFFLINE-CLIS.md in the shared reference).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export type CliName = 'claude' | 'codex' | 'droid' | 'gemini' | 'qwen' | 'claude-acp' | 'copilot';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The real binaries installed from npm; droid's wrapper package is unpublished, so run the platform binary. */
export const CLI_BINARIES: Record<CliName, string> = {
  claude: join(REPO_ROOT, 'node_modules/.bin/claude'),
  codex: join(REPO_ROOT, 'node_modules/.bin/codex'),
  droid: join(REPO_ROOT, 'node_modules/@factory/cli-linux-x64/bin/droid'),
  gemini: join(REPO_ROOT, 'node_modules/.bin/gemini'),
  qwen: join(REPO_ROOT, 'node_modules/.bin/qwen'),
  // Claude Code over ACP through Zed's adapter: an operator's clis.json entry, not a shipped CLI.
  'claude-acp': join(REPO_ROOT, 'node_modules/.bin/claude-agent-acp'),
  copilot: join(REPO_ROOT, 'node_modules/.bin/copilot'),
};

/** The model Gemini CLI asks the mock for. */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/** The model Qwen Code names to the mock's chat completions (any name: the API is the mock's). */
export const QWEN_MODEL = 'qwen-mock';

/** A model slug codex knows; an unknown one makes it print an extra "error" item. */
export const CODEX_MODEL = 'gpt-5.5';
/** droid's name for the first entry of settings.json `customModels`. */
export const DROID_MODEL = 'custom:Mock-0';
/** The model id droid sends to the mock for DROID_MODEL. */
export const DROID_WIRE_MODEL = 'claude-mock';
/** The mock's API key; no CLI checks it, but each wants one. */
export const MOCK_API_KEY = 'test';

export interface CliEnv {
  /** Complete environment: pass with execa `extendEnv: false` so the caller's keys cannot leak in. */
  env: Record<string, string>;
  home: string;
  /** An empty working directory inside the sandbox, so no repo CLAUDE.md/AGENTS.md is picked up. */
  workdir: string;
  /** Absolute path of the CLI binary. */
  command: string;
  cleanup: () => Promise<void>;
}

function codexConfig(mockUrl: string): string {
  return [
    `model = "${CODEX_MODEL}"`,
    'model_provider = "mock"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "${mockUrl}/v1"`,
    'env_key = "MOCK_API_KEY"',
    'wire_api = "responses"',
    // Fail fast on scripted errors instead of retrying with backoff.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n');
}

function droidSettings(mockUrl: string): string {
  const model = {
    model: DROID_WIRE_MODEL,
    displayName: 'Mock',
    baseUrl: mockUrl,
    apiKey: MOCK_API_KEY,
    provider: 'anthropic',
    maxOutputTokens: 8192,
  };
  return JSON.stringify({ customModels: [model] }, null, 2);
}

/** Writes the CLI's config files under `home` and returns its extra env vars. */
async function configure(cli: CliName, home: string, mockUrl: string): Promise<Record<string, string>> {
  switch (cli) {
    case 'claude':
    case 'claude-acp':
      return {
        ANTHROPIC_BASE_URL: mockUrl,
        ANTHROPIC_API_KEY: MOCK_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        // 2.1.330 would otherwise hide MCP tools behind its ToolSearch tool.
        ENABLE_TOOL_SEARCH: 'false',
        // --dangerously-skip-permissions is refused as root without it.
        IS_SANDBOX: '1',
        // 2.1.330 retries even a 401 ten times with backoff (about a minute); fail a scripted error at once.
        CLAUDE_CODE_MAX_RETRIES: '0',
      };
    case 'codex': {
      const codexHome = join(home, '.codex');
      await mkdir(codexHome, { recursive: true });
      await writeFile(join(codexHome, 'config.toml'), codexConfig(mockUrl));
      return { CODEX_HOME: codexHome, MOCK_API_KEY };
    }
    case 'droid': {
      const factoryDir = join(home, '.factory');
      await mkdir(factoryDir, { recursive: true });
      await writeFile(join(factoryDir, 'settings.json'), droidSettings(mockUrl));
      // droid calls its backend and retries with backoff when unreachable; the mock answers /api/* with {}.
      return {
        FACTORY_API_BASE_URL: mockUrl,
        FACTORY_TELEMETRY_INGEST_BASE_URL: mockUrl,
        FACTORY_APP_BASE_URL: mockUrl,
        FACTORY_RELAY_BASE_URL: mockUrl,
        FACTORY_DISABLE_DYNAMIC_CONFIG: '1',
      };
    }
    case 'gemini': {
      // Its API key chosen in its settings (the bridge then names it in ACP's `authenticate`), nothing sent home.
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        model: { name: GEMINI_MODEL },
      };
      await mkdir(join(home, '.gemini'), { recursive: true });
      await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
      return { GEMINI_API_KEY: MOCK_API_KEY, GOOGLE_GEMINI_BASE_URL: mockUrl, GEMINI_CLI_NO_RELAUNCH: 'true' };
    }
    case 'copilot':
      // Its bring-your-own-key mode, with no GitHub login: an OpenAI-style API (the mock), nothing fetched from GitHub.
      return {
        COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
        COPILOT_PROVIDER_API_KEY: MOCK_API_KEY,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_MODEL: 'copilot-mock',
        COPILOT_OFFLINE: '1',
      };
    case 'qwen': {
      // The OpenAI-style key chosen, nothing sent home, and no background model calls of its own (memory).
      const settings = {
        security: { auth: { selectedType: 'openai' } },
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
        model: { name: QWEN_MODEL },
      };
      await mkdir(join(home, '.qwen'), { recursive: true });
      await writeFile(join(home, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2));
      // Its usage statistics (to Alibaba's RUM host) off by the variable too: in walls its settings are the walls'.
      return { OPENAI_API_KEY: MOCK_API_KEY, OPENAI_BASE_URL: `${mockUrl}/v1`, OPENAI_MODEL: QWEN_MODEL, QWEN_USAGE_STATISTICS_ENABLED: 'false' };
    }
  }
}

export async function prepareCliEnv(cli: CliName, mockUrl: string): Promise<CliEnv> {
  const root = await mkdtemp(join(tmpdir(), `jsonl-bridge-${cli}-`));
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  const workdir = join(root, 'work');
  await Promise.all([home, tmp, workdir].map((dir) => mkdir(dir, { recursive: true })));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    ...(await configure(cli, home, mockUrl)),
  };
  return {
    env,
    home,
    workdir,
    command: CLI_BINARIES[cli],
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

export interface CliRun {
  exitCode: number | undefined;
  signal: string | undefined;
  stdout: string;
  stderr: string;
  /** Every stdout line parsed as JSON (non-JSON lines are skipped). */
  events: Record<string, unknown>[];
  durationMs: number;
}

function parseJsonLines(stdout: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A partial or non-JSON line: not an event.
    }
  }
  return events;
}

/**
 * Runs the sandboxed CLI once and collects its JSONL. stdin is closed (codex would otherwise wait
 * for piped input) and the caller's environment is not inherited.
 */
export async function runCli(cli: CliEnv, args: string[], options: { timeoutMs?: number } = {}): Promise<CliRun> {
  const started = Date.now();
  const result = await execa(cli.command, args, {
    env: cli.env,
    extendEnv: false,
    cwd: cli.workdir,
    stdin: 'ignore',
    reject: false,
    timeout: options.timeoutMs ?? 30_000,
  });
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    events: parseJsonLines(result.stdout),
    durationMs: Date.now() - started,
  };
}
