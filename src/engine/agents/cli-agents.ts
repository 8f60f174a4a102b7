import type { AgentLibraryCatalog } from './library.ts';
import type { McpServerConfig } from './mcp-servers.ts';
import type { AgentDefinition } from './types.ts';

/** One agent as a CLI's own Task tool takes it (Claude Code's `--agents` JSON): its MCP servers inline, so the CLI need not know them by name. */
export type CliAgent = Pick<AgentDefinition, 'description' | 'prompt' | 'disallowedTools' | 'model' | 'maxTurns' | 'skills'> & {
  tools?: string[];
  mcpServers?: Record<string, McpServerConfig>[];
};

export type CliAgents = Record<string, CliAgent>;

/**
 * The catalog's agents a session of `cli` may delegate to in-process: the enabled ones not
 * bound to another CLI, less `withheld` (those whose work the tool policy needs people to
 * approve: only a run of their own, whose every call the bridge sees as theirs, may do it).
 * Broken definitions are not in a catalog, so they never get here.
 */
export function cliAgents(catalog: AgentLibraryCatalog, cli: string, withheld: ReadonlySet<string> = new Set()): CliAgents {
  const agents: CliAgents = {};
  for (const agent of catalog.agents) {
    if (!agent.enabled || (agent.cli && agent.cli !== cli) || withheld.has(agent.slug)) continue;
    const { description, prompt, allowedTools: tools, disallowedTools, model, maxTurns, mcpServers, skills } = agent;
    const inline = mcpServers?.map((name) => ({ [name]: catalog.mcpServers[name]! }));
    agents[agent.slug] = { description, prompt, tools, disallowedTools, model, maxTurns, mcpServers: inline, skills };
  }
  return agents;
}
