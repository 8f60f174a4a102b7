import { BARE_NUMBERS } from '../../kernel/known-transports.ts';
import { qualifiedId } from '../../kernel/ports/chat.ts';
import { resolve } from 'node:path';
import { loadAdapters, type Adapter } from '../../engine/adapters/load.ts';
import { loadOperatorClis } from '../../engine/adapters/operator-clis.ts';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { childEnv } from '../../engine/process/child-env.ts';
import type { TranscriberConfig } from '../../engine/files/transcriber.ts';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from '../../kernel/policy/permission-mode.ts';
import { BUSY_MODES, isBusyMode, type BusyMode } from '../../kernel/policy/busy-mode.ts';
import { ownerMarks } from '../../engine/process/owner-marks.ts';
import { resolveAgentUser, type AgentUser } from '../../engine/process/agent-user.ts';
import { decideSandbox, type Sandbox } from '../../engine/sandbox/sandbox-decision.ts';
import { credentialVariables } from '../../engine/sandbox/model-api-access.ts';
import { sandboxConfig } from '../../engine/sandbox/sandbox-config.ts';
import { parseChain, type FallbackChain } from '../../engine/fallback/chain.ts';
import { loadProjects, type ProjectsConfig } from './projects.ts';
import { statePlaces } from '../../engine/process/state-places.ts';
import { LOG_FORMATS, type LogFormat } from '../../kernel/log/logger.ts';
import { loadBridgeManifest, type BridgeManifest, type Settings } from './bridge-manifest.ts';
import { hostPort } from './listen-address.ts';
import { webConfig, type WebConfig } from './web.ts';
import { apiConfig, type ApiConfig } from './api.ts';
import { metricsConfig } from './metrics.ts';
import type { MetricsConfig } from '../telemetry/metrics-settings.ts';
import { loadHooks, type Hook } from '../hooks/hooks-file.ts';
import { PriceTable } from '../../engine/usage/prices.ts';
import { loadToolPolicy } from '../../kernel/policy/tool-policy-file.ts';
import type { ApprovalRule } from '../../kernel/policy/approval-rules.ts';
import { REPO_ROOT } from '../../kernel/repo-root.ts';

export interface BridgeConfig extends ProjectsConfig {
  /** BRIDGE_ALLOWED_USERS, each `transport:id` (a bare number written: the `bareNumbers` transport's). */
  allowedUsers: string[];
  /** BRIDGE_OWNERS, written the same way; by default the first of BRIDGE_ALLOWED_USERS. They decide what the bridge trusts, and see every chat on the web pages. */
  owners: string[];
  /** BRIDGE_ADMINS, written the same way: they manage the chats they are in (modes, agents, schedules, others' runs, who is allowed there). */
  admins: string[];
  /** BRIDGE_GROUP_TURNS: in a group, who may start turns: everyone allowed there, or only those an admin named with /allow (and the admins and owners). */
  groupTurns: GroupTurns;
  /** The transport a bare number means where a person writes a chat or user: this configuration's, the API's `chat_id`. */
  bareNumbers: string;
  /** Per chat and UTC day; none: no limit. */
  dailyBudgetUsd: number | undefined;
  /** Per person and UTC day, across chats (BRIDGE_PERSON_DAILY_BUDGET_USD); none: no limit. */
  personDailyBudgetUsd: number | undefined;
  /** What models cost per token: the shipped table with BRIDGE_DATA_DIR/prices.json over it. */
  prices: PriceTable;
  /** How main sessions treat tools that need permission, unless a chat chose otherwise (/permissions). */
  permissionMode: PermissionMode;
  /** What a message sent while a chat's agent works does, unless the chat chose otherwise (/busy). */
  busyMode: BusyMode;
  /** BRIDGE_FALLBACK: the CLIs a turn or run goes on in when its CLI's quota or rate limit stops it, unless a chat chose otherwise (/fallback); none: it waits. */
  fallback: FallbackChain | undefined;
  /** CLI processes kept between turns (BRIDGE_LIVE_SESSIONS), and how long one may idle (BRIDGE_IDLE_MINUTES). */
  live: { max: number; idleMs: number };
  /**
   * What a restart does with work in flight: on SIGTERM, how long running turns and runs may
   * finish (BRIDGE_DRAIN_SECONDS), and whether work it interrupted is resumed at the next start
   * (BRIDGE_RESUME_INTERRUPTED) rather than announced as interrupted.
   */
  restart: { drainMs: number; resume: boolean };
  /** Where voice messages are turned into text; none: they are saved, and the chat is told how to enable it. */
  transcribe: TranscriberConfig | undefined;
  dataDir: string;
  defaultCli: string;
  adapters: Map<string, Adapter>;
  manifest: BridgeManifest;
  settings: Settings;
  /** Where the bridge's MCP endpoint listens, and the URL its CLIs (on workers too) reach it at. */
  mcp: McpListen;
  /** The SubagentService, when BRIDGE_API_ADDR is set. */
  api: ApiConfig | undefined;
  /** The dashboard, chat page and webhooks, when BRIDGE_WEB_ADDR is set. */
  web: WebConfig | undefined;
  /** Who may scrape the metrics, where they are also served (BRIDGE_METRICS_ADDR), and where they are pushed (OTEL_*). */
  metrics: MetricsConfig;
  /** The webhooks of BRIDGE_DATA_DIR/hooks.json (served at BRIDGE_WEB_ADDR/hooks/<name>); none without the file. */
  hooks: Hook[];
  /** The rules of BRIDGE_DATA_DIR/tool-policy.json: calls that need more than one person's Allow, in every mode. */
  approvalRules: ApprovalRule[];
  /** The time zone schedules are read in (BRIDGE_TZ, or the machine's): `daily 09:00` is 09:00 there. */
  timeZone: string;
  /** The Redis of the queue subagent runs go through (BRIDGE_REDIS_URL); none: they run in the bridge's process. */
  redisUrl: string | undefined;
  /** What the bridge and its workers sign what goes through Redis with (BRIDGE_QUEUE_SECRET): set whenever redisUrl is. */
  queueSecret: string | undefined;
  /**
   * Chats' own sessions on workers (BRIDGE_SESSION_WORKERS, needs redisUrl), and on a worker
   * how many chats' live CLI processes it holds (BRIDGE_WORKER_LIVE_SESSIONS).
   */
  sessionWorkers: { on: boolean; liveSessions: number };
  /** What CLIs run with: the bridge's own environment less its settings and secrets (API keys and base URLs pass through). */
  cliEnv: Record<string, string | undefined>;
  /** How log lines are written (BRIDGE_LOG_FORMAT). */
  logFormat: LogFormat;
  /** The OS user CLIs and the git of runs run as (BRIDGE_AGENT_USER); none: the bridge's own. */
  agentUser: AgentUser | undefined;
  /** Whether CLIs run inside walls (BRIDGE_SANDBOX, decided at start) and the hosts they may reach (BRIDGE_SANDBOX_ALLOW). */
  sandbox: Sandbox;
}

/** Where the bridge's MCP endpoint listens, and the URL CLIs reach it at (workers on other machines need one they can reach). */
export interface McpListen {
  host: string;
  /** 0: a free port. */
  port: number;
  /** Default: `http://<host>:<port>/mcp`. */
  publicUrl?: string;
}

export interface ConfigSources {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  adaptersDir?: string;
  manifestPath?: string;
  /** Whether the log goes to a terminal: it is written for a person then, unless BRIDGE_LOG_FORMAT says otherwise. */
  logToTerminal?: boolean;
}

/** Reads the whole configuration once, failing with the variable or file and field at fault. */
export async function loadConfig(sources: ConfigSources = {}): Promise<BridgeConfig> {
  const env = sources.env ?? process.env;
  const cwd = sources.cwd ?? process.cwd();
  const manifest = await loadBridgeManifest(sources.manifestPath ?? resolve(REPO_ROOT, 'manifest.json'));
  const adapters = await loadAdapters(sources.adaptersDir ?? resolve(REPO_ROOT, 'adapters'), env);
  const dataDir = resolve(cwd, env.BRIDGE_DATA_DIR?.trim() || './data');
  for (const agent of await loadOperatorClis(dataDir, adapters, env)) adapters.set(agent.name, agent);

  const defaultCli = env.BRIDGE_DEFAULT_CLI?.trim() || 'claude';
  if (!adapters.has(defaultCli)) {
    throw new ConfigError(`BRIDGE_DEFAULT_CLI: unknown CLI "${defaultCli}"; known: ${[...adapters.keys()].join(', ')}`);
  }
  const sub = manifest.settings.subagents;
  const settings: Settings = {
    ...manifest.settings,
    silenceSeconds: integer(env, 'BRIDGE_SILENCE_SECONDS', manifest.settings.silenceSeconds, 1),
    subagents: {
      ...sub,
      maxConcurrent: integer(env, 'SUBAGENTS_MAX_CONCURRENT', sub.maxConcurrent, 1),
      maxQueued: integer(env, 'SUBAGENTS_MAX_QUEUED', sub.maxQueued, 0),
      timeoutSeconds: integer(env, 'SUBAGENTS_TIMEOUT_SECONDS', sub.timeoutSeconds, 1),
    },
    workers: {
      ...manifest.settings.workers,
      lockSeconds: integer(env, 'BRIDGE_WORKER_LOCK_SECONDS', manifest.settings.workers.lockSeconds, 1),
    },
  };
  const allowedUsers = userIds(env, 'BRIDGE_ALLOWED_USERS', BARE_NUMBERS);
  const agentUser = await resolveAgentUser(env.BRIDGE_AGENT_USER);
  const sandbox = sandboxConfig(env);
  const owners = userIds(env, 'BRIDGE_OWNERS', BARE_NUMBERS);
  const admins = userIds(env, 'BRIDGE_ADMINS', BARE_NUMBERS);
  return {
    admins,
    allowedUsers,
    owners: owners.length ? owners : allowedUsers.slice(0, 1),
    groupTurns: groupTurns(env.BRIDGE_GROUP_TURNS),
    bareNumbers: BARE_NUMBERS,
    dailyBudgetUsd: dollars(env, 'BRIDGE_DAILY_BUDGET_USD'),
    personDailyBudgetUsd: dollars(env, 'BRIDGE_PERSON_DAILY_BUDGET_USD'),
    prices: await PriceTable.load(dataDir, adapters.values()),
    permissionMode: permissionMode(env.BRIDGE_PERMISSION_MODE),
    busyMode: busyMode(env.BRIDGE_BUSY_MODE),
    fallback: fallbackChain(env.BRIDGE_FALLBACK, [...adapters.keys()]),
    live: { max: integer(env, 'BRIDGE_LIVE_SESSIONS', 8, 0), idleMs: integer(env, 'BRIDGE_IDLE_MINUTES', 30, 1) * 60_000 },
    restart: { drainMs: integer(env, 'BRIDGE_DRAIN_SECONDS', 60, 0) * 1000, resume: onOff(env, 'BRIDGE_RESUME_INTERRUPTED', true) },
    transcribe: transcribe(env),
    redisUrl: redisUrl(env.BRIDGE_REDIS_URL),
    queueSecret: queueSecret(env),
    sessionWorkers: sessionWorkers(env),
    mcp: mcpListen(env),
    api: await apiConfig(env, BARE_NUMBERS),
    web: await webConfig(env),
    metrics: metricsConfig(env),
    hooks: await loadHooks(dataDir, BARE_NUMBERS, [...adapters.keys()]),
    approvalRules: await loadToolPolicy(dataDir),
    timeZone: timeZone(env.BRIDGE_TZ),
    dataDir,
    ...(await loadProjects(env, cwd, statePlaces(dataDir, agentUser))),
    defaultCli,
    adapters,
    manifest,
    settings,
    // Marked, so a restarted bridge can find CLIs its killed predecessor left running.
    cliEnv: { ...childEnv(env), ...ownerMarks(dataDir) },
    logFormat: logFormat(env.BRIDGE_LOG_FORMAT, sources.logToTerminal ?? process.stderr.isTTY === true),
    agentUser,
    sandbox: { decision: await decideSandbox(sandbox, agentUser, env), allow: sandbox.allow, internal: sandbox.internal ?? [] },
  };
}

export const GROUP_TURNS = ['everyone', 'allowed'] as const;
export type GroupTurns = (typeof GROUP_TURNS)[number];

function groupTurns(raw: string | undefined): GroupTurns {
  const value = raw?.trim().toLowerCase();
  if (!value) return 'everyone';
  if (!(GROUP_TURNS as readonly string[]).includes(value))
    throw new ConfigError(
      `BRIDGE_GROUP_TURNS: expected everyone (anyone allowed who is in the group) or allowed (only those an admin named with /allow), got "${raw}"`,
    );
  return value as GroupTurns;
}

function fallbackChain(raw: string | undefined, known: string[]): FallbackChain | undefined {
  const text = raw?.trim();
  if (!text || text.toLowerCase() === 'off') return undefined;
  const parsed = parseChain(text, known);
  if ('problem' in parsed) throw new ConfigError(`BRIDGE_FALLBACK: ${parsed.problem}`);
  return parsed.chain;
}

function logFormat(raw: string | undefined, terminal: boolean): LogFormat {
  const format = raw?.trim().toLowerCase();
  if (!format) return terminal ? 'pretty' : 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(format)) throw new ConfigError(`BRIDGE_LOG_FORMAT: expected ${LOG_FORMATS.join(' or ')}, got "${raw}"`);
  return format as LogFormat;
}

/** Values of the configuration no log line may show. */
export function configSecrets(config: BridgeConfig): string[] {
  const redisPassword = config.redisUrl ? decodeURIComponent(new URL(config.redisUrl).password) : '';
  return [
    ...(config.api?.tokens.map((t) => t.token) ?? []),
    redisPassword,
    config.queueSecret ?? '',
    config.transcribe?.key ?? '',
    ...config.hooks.map((hook) => hook.secret),
    ...config.metrics.secrets,
    // Every model key a CLI may hold (its adapter's credentials among them), as the CLIs get it.
    ...credentialVariables([...config.adapters.values()].map((adapter) => adapter.walls.modelApi)).map((name) => config.cliEnv[name] ?? ''),
  ].filter(Boolean);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name}: expected a whole number of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name}: expected on or off, got "${env[name]!.trim()}"`);
  return raw === 'on';
}

function userIds(env: NodeJS.ProcessEnv, name: string, bareNumbers: string): string[] {
  const raw = env[name];
  if (!raw?.trim()) return [];
  return raw.split(',').map((part) => {
    const id = qualifiedId(part, bareNumbers);
    if (!id) throw new ConfigError(`${name}: expected comma-separated user ids (numbers, or transport:id), got "${part.trim()}"`);
    return id;
  });
}

function permissionMode(raw: string | undefined): PermissionMode {
  const mode = raw?.trim().toLowerCase() || 'bypass';
  if (!isPermissionMode(mode)) throw new ConfigError(`BRIDGE_PERMISSION_MODE: expected one of ${PERMISSION_MODES.join(', ')}, got "${raw}"`);
  return mode;
}

function busyMode(raw: string | undefined): BusyMode {
  const mode = raw?.trim().toLowerCase() || 'steer';
  if (!isBusyMode(mode)) throw new ConfigError(`BRIDGE_BUSY_MODE: expected one of ${BUSY_MODES.join(', ')}, got "${raw}"`);
  return mode;
}

function transcribe(env: NodeJS.ProcessEnv): TranscriberConfig | undefined {
  const url = env.BRIDGE_TRANSCRIBE_URL?.trim();
  if (!url) return undefined;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new ConfigError(`BRIDGE_TRANSCRIBE_URL: expected the http(s) base URL of an OpenAI-compatible API, like http://127.0.0.1:8000/v1, got "${url}"`);
  const key = env.BRIDGE_TRANSCRIBE_KEY?.trim();
  return { url, ...(key ? { key } : {}), model: env.BRIDGE_TRANSCRIBE_MODEL?.trim() || 'whisper-1' };
}

function mcpListen(env: NodeJS.ProcessEnv): McpListen {
  const listen = env.BRIDGE_MCP_LISTEN?.trim();
  const url = env.BRIDGE_MCP_URL?.trim();
  const where: McpListen = { host: '127.0.0.1', port: 0 };
  if (listen) Object.assign(where, hostPort('BRIDGE_MCP_LISTEN', listen, '0.0.0.0:8765'));
  if (url) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new ConfigError(`BRIDGE_MCP_URL: expected the http(s) URL workers reach the bridge's tools at, like http://bridge.internal:8765/mcp, got "${url}"`);
    where.publicUrl = url;
  }
  return where;
}

function redisUrl(raw: string | undefined): string | undefined {
  const url = raw?.trim();
  if (!url) return undefined;
  if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol))
    throw new ConfigError(
      `BRIDGE_REDIS_URL: expected a redis:// or rediss:// URL, like redis://:password@127.0.0.1:6379/0, got "${url.replace(/:[^:@/]*@/, ':***@')}"`,
    );
  return url;
}

/** The shortest BRIDGE_QUEUE_SECRET taken: 32 characters, enough for an HMAC key nobody guesses. */
export const MIN_QUEUE_SECRET_CHARS = 32;

/** Chats' sessions on workers need the queue they reach the workers through. */
function sessionWorkers(env: NodeJS.ProcessEnv): BridgeConfig['sessionWorkers'] {
  const on = onOff(env, 'BRIDGE_SESSION_WORKERS', false);
  if (on && !env.BRIDGE_REDIS_URL?.trim())
    throw new ConfigError('BRIDGE_SESSION_WORKERS: on needs BRIDGE_REDIS_URL (the Redis the bridge reaches its workers through)');
  return { on, liveSessions: integer(env, 'BRIDGE_WORKER_LIVE_SESSIONS', 8, 1) };
}

/** Required with a queue: without it, whoever can write to Redis could run commands on the workers. */
function queueSecret(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.BRIDGE_REDIS_URL?.trim()) return undefined;
  const secret = env.BRIDGE_QUEUE_SECRET?.trim() ?? '';
  if (!secret)
    throw new ConfigError(
      `BRIDGE_QUEUE_SECRET is not set: BRIDGE_REDIS_URL needs it, the same on the bridge and every worker, at least ${MIN_QUEUE_SECRET_CHARS} characters (openssl rand -base64 33)`,
    );
  if (secret.length < MIN_QUEUE_SECRET_CHARS)
    throw new ConfigError(`BRIDGE_QUEUE_SECRET: expected at least ${MIN_QUEUE_SECRET_CHARS} characters (openssl rand -base64 33), got ${secret.length}`);
  return secret;
}

function dollars(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0) throw new ConfigError(`${name}: expected an amount of US dollars above 0, like 5 or 2.50, got "${raw}"`);
  return Number(raw);
}

function timeZone(raw: string | undefined): string {
  const zone = raw?.trim() || Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new ConfigError(`BRIDGE_TZ: expected an IANA time zone, like Europe/Berlin or UTC, got "${zone}"`);
  }
  return zone;
}
