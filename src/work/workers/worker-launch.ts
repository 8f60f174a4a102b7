import type { Adapter } from '../../engine/adapters/load.ts';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import type { Owner } from '../../engine/sandbox/helper-env.ts';
import { loadMcpServers, mcpServersFile, type McpServerConfig } from '../../engine/agents/mcp-servers.ts';
import { asAgent } from '../../engine/process/agent-user.ts';
import { homeOutside } from '../../engine/sandbox/walls.ts';
import { writtenHostRules } from '../../engine/sandbox/host-rules.ts';
import { liveLaunchKey } from '../../engine/session/live-cli.ts';
import type { SessionConfig } from '../../engine/session/session-config.ts';
import { dataDirDenials } from '../../kernel/policy/data-dir-rules.ts';
import type { SessionLaunch } from './session-protocol.ts';

/**
 * Where a session's CLI keeps its sessions on this worker, and whose files they are: its walls'
 * home (the sandbox's uid), the agent user's home, or this process's own.
 */
export function sessionFilesPlace(
  env: Record<string, string | undefined>,
  launch: SessionLaunch,
  adapter: Adapter,
): { env: Record<string, string | undefined>; owner?: Owner } {
  const walled = launch.walls ? homeOutside(launch.walls.home, env, adapter.walls) : undefined;
  if (walled) return walled;
  const agent = asAgent(env, launch.cwd);
  return agent.uid !== undefined && agent.gid !== undefined ? { env: agent.env, owner: { uid: agent.uid, gid: agent.gid } } : { env };
}

/**
 * The operator's MCP servers a launch names (its agent's, and its CLI's agents'), as this
 * worker's own `mcp-servers.json` configures them; or which it lacks, and where it looked.
 */
export async function operatorServers(
  launch: SessionLaunch,
  dataDir: string,
  worker: string,
): Promise<{ servers: Record<string, McpServerConfig> } | { lacking: string }> {
  const named = [...new Set([...(launch.mcpServers ?? []), ...Object.values(launch.agentMcpServers ?? {}).flat()])];
  if (!named.length) return { servers: {} };
  const { servers } = await loadMcpServers(dataDir);
  const missing = named.filter((server) => !servers[server]);
  if (!missing.length) return { servers };
  const which = missing.length === 1 ? 'server' : 'servers';
  return { lacking: `it names the MCP ${which} ${missing.join(', ')}, which worker ${worker} does not have in ${mcpServersFile(dataDir)}` };
}

/** What of this worker a session's CLI starts with, beside the bridge's launch: its adapter, environment, pool, answerer and log as they are. */
export type WorkerParts = Required<Pick<SessionConfig, 'adapter' | 'env' | 'live' | 'onPermission' | 'log'>> & {
  /** The bridge's tools, with their config file written here; none when the session has none. */
  mcp: McpAccess | undefined;
  /** The operator's servers the launch names, from this worker's file. */
  servers: Record<string, McpServerConfig>;
  dataDir: string;
  /** The session's own hosts (`/net`) as its last turn said, read at each turn. */
  netAllow: () => string[] | undefined;
};

/**
 * The session as this worker runs it, from the bridge's launch: its options with this
 * worker's tools, servers and data directory's denials, its mode, its walls here; and what its
 * CLI's command line depends on (another needs a session, and a process, of its own).
 */
export function sessionConfigOf(launch: SessionLaunch, parts: WorkerParts): { config: SessionConfig; key: string } {
  const { mcp, servers, dataDir, netAllow, ...here } = parts;
  const { resumeId, cwd: _, ...options } = launch.spec;
  if (options.agents && launch.agentMcpServers)
    options.agents = Object.fromEntries(
      Object.entries(options.agents).map(([slug, agent]) => {
        const names = launch.agentMcpServers![slug];
        return [slug, names ? { ...agent, mcpServers: names.map((server) => ({ [server]: servers[server]! })) } : agent];
      }),
    );
  const walls = launch.walls && {
    home: launch.walls.home,
    readOnly: launch.walls.readOnly,
    egress: { allow: () => writtenHostRules(netAllow()) },
  };
  const config: SessionConfig = {
    ...here,
    cwd: launch.cwd,
    resumeId,
    options: {
      ...options,
      ...(mcp ? { mcp } : {}),
      // Reading stops at this worker's data directory too, where the bridge's stops at its own.
      ...(options.disallowedTools ? { disallowedTools: [...options.disallowedTools, ...dataDirDenials(dataDir)] } : {}),
    },
    // The mode the bridge's session runs in ('bypass': none asked), as its own would give it.
    ...(launch.mode !== 'bypass' ? { permissions: launch.mode } : {}),
    graceMs: launch.graceMs,
    liveInput: true,
    // In this worker's walls, when its sandbox is on: the session's own home and hosts, as on the bridge.
    walls,
  };
  const key = liveLaunchKey({ adapter: here.adapter, spec: { ...config.options, resumeId: undefined }, cwd: launch.cwd, mode: launch.mode, walls });
  return { config, key };
}
