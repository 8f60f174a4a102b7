import { resolve } from 'node:path';
import { ConfigError } from '../kernel/errors/config-error.ts';
import { loadAdapters, type Adapter } from './adapters/load.ts';
import { loadOperatorClis } from './adapters/operator-clis.ts';
import { childEnv } from './process/child-env.ts';
import { ownerMarks } from './process/owner-marks.ts';
import { resolveAgentUser, type AgentUser } from './process/agent-user.ts';
import { statePlaces } from './process/state-places.ts';
import { transcriberConfig, type TranscriberConfig } from './files/transcriber.ts';
import { decideSandbox, type Sandbox } from './sandbox/sandbox-decision.ts';
import { sandboxConfig } from './sandbox/sandbox-config.ts';
import { fallbackChain, type FallbackChain } from './fallback/chain.ts';
import { loadProjects, type ProjectsConfig } from './projects/projects-settings.ts';
import { PriceTable } from './usage/prices.ts';

/** What CLIs run with, where, and as whom. */
export interface EngineSettings extends ProjectsConfig {
  dataDir: string;
  defaultCli: string;
  adapters: Map<string, Adapter>;
  /** What models cost per token: the shipped table with BRIDGE_DATA_DIR/prices.json over it. */
  prices: PriceTable;
  /** BRIDGE_FALLBACK: the CLIs a turn or run goes on in when its CLI's quota or rate limit stops it, unless a chat chose otherwise (/fallback); none: it waits. */
  fallback: FallbackChain | undefined;
  /** Where voice messages are turned into text; none: they are saved, and the chat is told how to enable it. */
  transcribe: TranscriberConfig | undefined;
  /** What CLIs run with: the bridge's own environment less its settings and secrets (API keys and base URLs pass through). */
  cliEnv: Record<string, string | undefined>;
  /** The OS user CLIs and the git of runs run as (BRIDGE_AGENT_USER); none: the bridge's own. */
  agentUser: AgentUser | undefined;
  /** Whether CLIs run inside walls (BRIDGE_SANDBOX, decided at start) and the hosts they may reach (BRIDGE_SANDBOX_ALLOW). */
  sandbox: Sandbox;
}

/** The adapters of `adaptersDir` with the operator's CLIs, and the variables of the engine's parts. */
export async function loadEngineSettings(env: NodeJS.ProcessEnv, cwd: string, adaptersDir: string): Promise<EngineSettings> {
  const adapters = await loadAdapters(adaptersDir, env);
  const dataDir = resolve(cwd, env.BRIDGE_DATA_DIR?.trim() || './data');
  for (const agent of await loadOperatorClis(dataDir, adapters, env)) adapters.set(agent.name, agent);
  const defaultCli = env.BRIDGE_DEFAULT_CLI?.trim() || 'claude';
  if (!adapters.has(defaultCli)) throw new ConfigError(`BRIDGE_DEFAULT_CLI: unknown CLI "${defaultCli}"; known: ${[...adapters.keys()].join(', ')}`);
  const agentUser = await resolveAgentUser(env.BRIDGE_AGENT_USER);
  const sandbox = sandboxConfig(env);
  return {
    dataDir,
    defaultCli,
    adapters,
    prices: await PriceTable.load(dataDir, adapters.values()),
    fallback: fallbackChain(env.BRIDGE_FALLBACK, [...adapters.keys()]),
    transcribe: transcriberConfig(env),
    ...(await loadProjects(env, cwd, statePlaces(dataDir, agentUser))),
    // Marked, so a restarted bridge can find CLIs its killed predecessor left running.
    cliEnv: { ...childEnv(env), ...ownerMarks(dataDir) },
    agentUser,
    sandbox: { decision: await decideSandbox(sandbox, agentUser, env), allow: sandbox.allow, internal: sandbox.internal ?? [] },
  };
}
