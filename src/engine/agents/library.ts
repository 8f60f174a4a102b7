import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadAgents } from './load.ts';
import { loadMcpServers, type McpServerConfig } from './mcp-servers.ts';
import { isValidSlug, SLUG_RULE } from './definition.ts';
import type { AgentToggles } from './toggles.ts';
import type { AgentCatalog, AgentDefinition } from './types.ts';

/** A catalog with the operator's MCP servers its agents may name. */
export interface AgentLibraryCatalog extends AgentCatalog {
  mcpServers: Record<string, McpServerConfig>;
  /** Whether the directory's own definitions were read: the owner trusts it, and the session may do more than read. */
  trusted: boolean;
}

export type NewAgent = Pick<AgentDefinition, 'slug' | 'description' | 'prompt'>;

/**
 * Every agent a chat can use, and the changes a chat may make: switching one on or off (kept
 * in the data directory) and writing a new one, always into `<BRIDGE_DATA_DIR>/agents`. Files
 * of a project (`.bridge/agents`, `.claude/agents`) are only ever read.
 */
export class AgentLibrary {
  constructor(
    private readonly options: {
      dataDir: string;
      knownClis: readonly string[];
      toggles: AgentToggles;
      /** Whether the owner trusts a directory (/trust): only then are its own definitions read. */
      trusts: (dir: string) => Promise<boolean>;
    },
  ) {}

  /** Where the operator's (and the chat's) own definitions live. */
  get userDir(): string {
    return join(this.options.dataDir, 'agents');
  }

  /**
   * Read afresh each time: an edited file counts from the next turn or spawn. A repository's
   * own definitions (`.bridge/agents`, `.claude/agents`) count only where the owner trusts it,
   * and never for a session that may only read (`readOnly`).
   */
  async catalog(workdir: string, { readOnly = false }: { readOnly?: boolean } = {}): Promise<AgentLibraryCatalog> {
    const [operator, trusted] = await Promise.all([loadMcpServers(this.options.dataDir), !readOnly && this.options.trusts(workdir)]);
    const catalog = await loadAgents({
      workdir: trusted ? workdir : undefined,
      userDir: this.userDir,
      known: { clis: this.options.knownClis, mcpServers: Object.keys(operator.servers) },
    });
    // Switched on or off from the chat, over the files' `enabled`.
    for (const agent of catalog.agents) agent.enabled = this.options.toggles.get(agent.slug) ?? agent.enabled;
    return { ...catalog, problems: [...operator.problems, ...catalog.problems], mcpServers: operator.servers, trusted };
  }

  /** The agent switched on or off, or why it cannot be. */
  async setEnabled(workdir: string, slug: string, enabled: boolean): Promise<AgentDefinition | string> {
    const agent = (await this.catalog(workdir)).get(slug);
    if (!agent) return `No agent "${slug}" here: /agents lists them.`;
    await this.options.toggles.set(slug, enabled);
    return { ...agent, enabled };
  }

  /**
   * Writes `<userDir>/<slug>/agent.json` and `prompt.md`, all or nothing (a folder made
   * aside, then renamed into place). An existing user agent of that name is not replaced.
   */
  async create(agent: NewAgent): Promise<{ file: string } | string> {
    if (!isValidSlug(agent.slug)) return `"${agent.slug}" is not a valid agent name: use ${SLUG_RULE}.`;
    await mkdir(this.userDir, { recursive: true, mode: 0o700 });
    const folder = join(this.userDir, agent.slug);
    const partial = join(this.userDir, `.new-${agent.slug}-${process.pid}-${Date.now()}`);
    await mkdir(partial, { mode: 0o700 });
    try {
      await writeFile(join(partial, 'agent.json'), `${JSON.stringify({ description: agent.description }, null, 2)}\n`, { mode: 0o600 });
      await writeFile(join(partial, 'prompt.md'), `${agent.prompt.trim()}\n`, { mode: 0o600 });
      await rename(partial, folder);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (error as NodeJS.ErrnoException).code === 'EEXIST')
        return `An agent "${agent.slug}" already exists in ${this.userDir}: edit its files, or choose another name.`;
      throw error;
    }
    return { file: join(folder, 'agent.json') };
  }
}
