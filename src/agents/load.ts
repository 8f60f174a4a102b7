import { join } from 'node:path';
import { buildCatalog } from './catalog.ts';
import { loadClaudeAgent } from './claude-source.ts';
import { loadAgentFolder } from './folder-source.ts';
import { listDir } from './safe-fs.ts';
import type { AgentCatalog, AgentSource, LoadedEntry } from './types.ts';

export interface LoadAgentsOptions {
  workdir: string;
  /** `<BRIDGE_DATA_DIR>/agents`. */
  userDir: string;
  /** Adapter names an agent's `cli` may name. */
  knownClis: readonly string[];
}

/**
 * Reads every agent definition afresh (it runs per /agents and per spawn, so edits show at once).
 * Never throws for what it finds on disk: a bad definition becomes a problem and is skipped.
 * The operator's definitions (the data directory) come first: a repository the agent works in
 * must not be able to put its own agent in their place.
 */
export async function loadAgents(options: LoadAgentsOptions): Promise<AgentCatalog> {
  const { workdir, userDir, knownClis } = options;
  const sources = await Promise.all([
    loadFolders(userDir, 'user', knownClis),
    loadFolders(join(workdir, '.bridge', 'agents'), 'workdir', knownClis),
    loadClaudeFiles(join(workdir, '.claude', 'agents'), knownClis),
  ]);
  return buildCatalog(sources);
}

/** Loose files (a README, say) and hidden entries are not agents and are passed over. */
async function loadFolders(dir: string, source: AgentSource, knownClis: readonly string[]): Promise<LoadedEntry[]> {
  const listing = await listDir(dir);
  if (listing.status === 'failed') return [{ file: dir, problems: [{ file: dir, message: listing.message }] }];
  const names = listing.entries
    .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
    .map((entry) => entry.name)
    .sort();
  return Promise.all(names.map((name) => loadAgentFolder(join(dir, name), name, source, knownClis)));
}

async function loadClaudeFiles(dir: string, knownClis: readonly string[]): Promise<LoadedEntry[]> {
  const listing = await listDir(dir);
  if (listing.status === 'failed') return [{ file: dir, problems: [{ file: dir, message: listing.message }] }];
  const names = listing.entries
    .filter((entry) => !entry.name.startsWith('.') && /\.md$/i.test(entry.name) && (entry.isFile() || entry.isSymbolicLink()))
    .map((entry) => entry.name)
    .sort();
  return Promise.all(names.map((name) => loadClaudeAgent(join(dir, name), knownClis)));
}
