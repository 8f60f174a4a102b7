/** The tools that read files by path, each refused the data directory by a rule of its own. */
const READING_TOOLS = ['Read', 'Grep', 'Glob'] as const;

/**
 * Claude Code permission rules refusing the bridge's data directory (sessions, logs, the
 * operator's MCP servers' secrets) to the tools that read: an agent that may only read, or
 * whose other calls are asked, still reads files without asking, and the default data
 * directory lies inside the default project root. `//` starts an absolute path in a rule.
 */
export function dataDirDenials(dataDir: string): string[] {
  const path = `/${dataDir.replace(/\/+$/, '')}/**`;
  return READING_TOOLS.map((tool) => `${tool}(${path})`);
}
