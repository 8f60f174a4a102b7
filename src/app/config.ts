import { resolve } from 'node:path';
import { REPO_ROOT } from '../kernel/repo-root.ts';
import { LOG_FORMATS, type LogFormat } from '../kernel/log/logger.ts';
import { oneOf } from '../kernel/settings/variables.ts';
import { bridgeSettings, loadBridgeManifest, type BridgeManifest, type Settings } from '../kernel/settings/bridge-manifest.ts';
import { loadToolPolicy } from '../kernel/policy/tool-policy-file.ts';
import type { ApprovalRule } from '../kernel/policy/approval-rules.ts';
import { loadEngineSettings, type EngineSettings } from '../engine/engine-settings.ts';
import { credentialVariables } from '../engine/sandbox/model-api-access.ts';
import { budgetSettings, type BudgetSettings } from '../engine/usage/budget.ts';
import { liveSessions, type LivePoolOptions } from '../engine/session/live-pool.ts';
import { metricsConfig, type MetricsConfig } from '../services/telemetry/metrics-settings.ts';
import { loadHooks, type Hook } from '../services/hooks/hooks-file.ts';
import { scheduleTimeZone } from '../services/schedules/timing.ts';
import { restartSettings, type RestartSettings } from '../work/restart-settings.ts';
import { queueSettings, type QueueSettings } from '../work/workers/queue-settings.ts';
import { mcpListen, type McpListen } from '../work/tools/mcp-listen.ts';
import { peopleSettings, type PeopleSettings } from '../chat/people/people-settings.ts';
import { defaultModes, type DefaultModes } from '../chat/session/default-modes.ts';
import { apiConfig, type ApiConfig } from '../surfaces/api/api-settings.ts';
import { webConfig, type WebConfig } from '../surfaces/web/web-settings.ts';

/** Every part's settings, each read by its part: only here are they put together. */
export interface BridgeConfig extends EngineSettings, PeopleSettings, DefaultModes, BudgetSettings, QueueSettings {
  manifest: BridgeManifest;
  settings: Settings;
  /** CLI processes kept between turns. */
  live: LivePoolOptions;
  restart: RestartSettings;
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
  /** The time zone schedules are read in. */
  timeZone: string;
  /** How log lines are written (BRIDGE_LOG_FORMAT). */
  logFormat: LogFormat;
}

export interface ConfigSources {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  adaptersDir?: string;
  /** Whether the log goes to a terminal: it is written for a person then, unless BRIDGE_LOG_FORMAT says otherwise. */
  logToTerminal?: boolean;
}

/** Reads the whole configuration once, failing with the variable or file and field at fault. */
export async function loadConfig(sources: ConfigSources = {}): Promise<BridgeConfig> {
  const env = sources.env ?? process.env;
  const manifest = await loadBridgeManifest(resolve(REPO_ROOT, 'manifest.json'));
  const engine = await loadEngineSettings(env, sources.cwd ?? process.cwd(), sources.adaptersDir ?? resolve(REPO_ROOT, 'adapters'));
  const people = peopleSettings(env);
  const terminal = sources.logToTerminal ?? process.stderr.isTTY === true;
  return {
    ...engine,
    manifest,
    settings: bridgeSettings(env, manifest),
    ...people,
    ...defaultModes(env),
    ...budgetSettings(env),
    live: liveSessions(env),
    restart: restartSettings(env),
    ...queueSettings(env),
    mcp: mcpListen(env),
    api: await apiConfig(env, people.bareNumbers),
    web: await webConfig(env),
    metrics: metricsConfig(env),
    hooks: await loadHooks(engine.dataDir, people.bareNumbers, [...engine.adapters.keys()]),
    approvalRules: await loadToolPolicy(engine.dataDir),
    timeZone: scheduleTimeZone(env.BRIDGE_TZ),
    logFormat: oneOf(env, 'BRIDGE_LOG_FORMAT', LOG_FORMATS, terminal ? 'pretty' : 'json', LOG_FORMATS.join(' or ')),
  };
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
