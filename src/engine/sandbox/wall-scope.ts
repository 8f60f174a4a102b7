import type { BlockedEvent, UsageEvent } from '../../kernel/protocols/events.ts';
import type { HostQuestion } from './egress-decision.ts';
import type { HostRule } from './host-rules.ts';
import type { ModelApiAccess } from './model-api-access.ts';
import type { CliConfig } from './operator-config.ts';
import type { ProgramCache } from './program-cache.ts';

/** What an adapter says of its CLI in walls: with the configuration it reads in its home (see operator-config.ts). */
export interface CliInWalls extends CliConfig {
  /** How it reaches its model API: the credential it uses is held outside. */
  modelApi?: ModelApiAccess;
  /** Variables naming where it keeps its settings and sessions on the host: left out, so it keeps them in its home inside. */
  unset?: string[];
  /** Hosts it calls besides its model API's, on 443 (codex's chatgpt.com, for a ChatGPT login). */
  hosts?: string[];
  /** Its login's files in its uid's home, copied into the sandbox's, and again whenever the operator's is newer (it refreshes them there). */
  login?: string[];
  /** Files copied in once, when a home is made, that it rewrites as it goes (Claude Code's `.claude.json`). */
  givenOnce?: string[];
  /** Where it unpacks its own program (the variable naming it), unpacked once for every sandbox instead of in each home (see program-cache.ts). */
  programCache?: ProgramCache;
}

/** The adapters of the CLIs a bridge drives, as far as their walls go. */
export type WalledClis = Iterable<{ walls: CliInWalls }>;

/** What one CLI process's walls are made of, besides what every sandbox has. */
export interface WallScope {
  /** Whose home it gets (a chat's key, a run's id): kept across turns and restarts, so sessions resume. */
  home: string;
  /** `safe`: its working directory is read-only too. */
  readOnly?: boolean;
  /** Files and folders the bridge wrote for this process (its MCP config, a large prompt's folder): shown read-only. */
  readable?: string[];
  /** The bridge's MCP endpoint for it: the same URL works inside, through a socket bound in. */
  mcpUrl?: string;
  /** Its chat's own hosts (`/net allow`), read at each connection, where a refusal is told, and who is asked about a host not on the list (`ask` mode). */
  egress?: {
    allow?: () => readonly HostRule[];
    onBlocked?: (host: string, why: string) => void;
    ask?: (host: string, port: number) => HostQuestion | undefined;
  };
  /** What its adapter says of its CLI in walls (`walls` in its manifest). */
  cli?: CliInWalls;
  /** Each model call its credential proxy passed, metered from the API's answer. */
  onMetered?: (event: UsageEvent) => void;
}

/**
 * A turn's walls: the session's, with what this process of it reads (its MCP config, its turn
 * folder) and the MCP endpoint it calls; what its walls refuse and meter is `report`ed as the
 * turn's events.
 */
export function turnWalls(
  base: WallScope | undefined,
  mcp: { url: string; configFile?: string } | undefined,
  folders: (string | undefined)[],
  report: (event: BlockedEvent | UsageEvent) => void,
  cli?: CliInWalls,
): WallScope | undefined {
  if (!base) return undefined;
  // The MCP config file alone, not its folder: every session's config (and secret) is in that folder.
  const readable = [...(base.readable ?? []), ...folders, mcp?.configFile].filter((f): f is string => !!f);
  const egress = {
    ...base.egress,
    onBlocked: (host: string, why: string) => {
      base.egress?.onBlocked?.(host, why);
      report({ type: 'blocked', host, why });
    },
  };
  const onMetered = (event: UsageEvent) => {
    base.onMetered?.(event);
    report(event);
  };
  return { ...base, readable, egress, onMetered, ...(mcp ? { mcpUrl: mcp.url } : {}), ...(cli ? { cli } : {}) };
}
