import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from './catalog.ts';
import { loadClaudeAgent } from './claude-source.ts';
import { loadAgentFolder } from './folder-source.ts';
import { listDir } from './safe-fs.ts';
import type { AgentCatalog, KnownNames, LoadedEntry } from './types.ts';

export interface LoadAgentsOptions {
  /** The working directory whose own definitions count; none (a directory nobody trusted): only the operator's. */
  workdir: string | undefined;
  /** `<BRIDGE_DATA_DIR>/agents`. */
  userDir: string;
  /** The adapters an agent's `cli` may name, and the MCP servers the operator configured, which its `mcpServers` may. */
  known: KnownNames;
}

/**
 * Reads every agent definition afresh (it runs per /agents and per spawn, so edits show at once).
 * Never throws for what it finds on disk: a bad definition becomes a problem and is skipped.
 * The operator's definitions (the data directory) come first: a repository the agent works in
 * must not be able to put its own agent in their place.
 */
export async function loadAgents({ workdir, userDir, known }: LoadAgentsOptions): Promise<AgentCatalog> {
  const folders = (entry: Dirent) => entry.isDirectory() || entry.isSymbolicLink();
  const sources = await Promise.all([
    loadEntries(userDir, folders, (path, name) => loadAgentFolder(path, name, 'user', known)),
    ...(workdir
      ? [
          loadEntries(join(workdir, '.bridge', 'agents'), folders, (path, name) => loadAgentFolder(path, name, 'workdir', known)),
          loadEntries(
            join(workdir, '.claude', 'agents'),
            (entry) => /\.md$/i.test(entry.name) && (entry.isFile() || entry.isSymbolicLink()),
            (path) => loadClaudeAgent(path, known),
          ),
        ]
      : []),
  ]);
  return buildCatalog(sources);
}

/** Loose files (a README, say) and hidden entries are not agents and are passed over. */
async function loadEntries(
  dir: string,
  isAgent: (entry: Dirent) => boolean,
  load: (path: string, name: string) => Promise<LoadedEntry>,
): Promise<LoadedEntry[]> {
  const listing = await listDir(dir);
  if (listing.status === 'failed') return [{ file: dir, problems: [{ file: dir, message: listing.message }] }];
  const names = listing.entries
    .filter((entry) => !entry.name.startsWith('.') && isAgent(entry))
    .map((entry) => entry.name)
    .sort();
  return Promise.all(names.map((name) => load(join(dir, name), name)));
}
