export type AgentSource = 'workdir' | 'claude' | 'user';

/** What an agent's fields may name: the configured CLIs, and the MCP servers the operator configured. */
export interface KnownNames {
  clis: readonly string[];
  mcpServers: readonly string[];
}

/** A loaded agent, whichever of the three formats it came from. */
export interface AgentDefinition {
  slug: string;
  name: string;
  description: string;
  prompt: string;
  model?: string;
  cli?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  /** The most one run of it may cost, in US dollars (its file's `budget`): stopped through its CLI once reached. */
  budgetUsd?: number;
  /** Names of MCP servers the operator configured (`<BRIDGE_DATA_DIR>/mcp-servers.json`) the agent gets. */
  mcpServers?: string[];
  /** Skills to preload, for a CLI that has them (Claude Code). */
  skills?: string[];
  /** An emoji shown before its name in lists. */
  icon?: string;
  /** Whether it may run: its file's `enabled`, unless /agents enable|disable said otherwise. */
  enabled: boolean;
  source: AgentSource;
  /** agent.json or the .md file: what the user edits. */
  file: string;
}

/** Rendered by `formatProblem` as `file: field "x": message`. */
export interface AgentProblem {
  file: string;
  field?: string;
  message: string;
}

export interface AgentCatalog {
  /** Sorted by slug; disabled agents included. */
  agents: AgentDefinition[];
  problems: AgentProblem[];
  /** Harmless facts worth showing, e.g. a slug hidden by a higher-precedence source. */
  notes: string[];
  /** Enabled or not. */
  get(slug: string): AgentDefinition | undefined;
}

/**
 * What one folder or file yields. A definition that failed still claims its slug, so a broken
 * project agent hides the user-wide one instead of silently running something else.
 */
export interface LoadedEntry {
  slug?: string;
  file: string;
  definition?: AgentDefinition;
  problems: AgentProblem[];
}
