import { formatProblem } from './problem.ts';
import type { AgentCatalog, AgentDefinition, AgentProblem, LoadedEntry } from './types.ts';

/**
 * Merges the sources, highest precedence first: the first entry to claim a slug wins, even a
 * broken one, and every later one becomes a note. All problems are kept, hidden or not.
 */
export function buildCatalog(sources: readonly (readonly LoadedEntry[])[]): AgentCatalog {
  const claims = new Map<string, LoadedEntry>();
  const problems: AgentProblem[] = [];
  const notes: string[] = [];
  for (const entry of sources.flat()) {
    problems.push(...entry.problems);
    if (entry.slug === undefined) continue;
    const winner = claims.get(entry.slug);
    if (winner) {
      const broken = winner.definition ? '' : ' (which has problems)';
      notes.push(`agent "${entry.slug}": ${entry.file} is hidden by ${winner.file}${broken}`);
    } else {
      claims.set(entry.slug, entry);
    }
  }
  const bySlug = new Map<string, AgentDefinition>();
  for (const [slug, entry] of claims) if (entry.definition) bySlug.set(slug, entry.definition);
  const agents = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { agents, problems, notes, get: (slug) => bySlug.get(slug) };
}

/** The named agent, enabled and ready to run, or a sentence saying why it cannot be. */
export function chooseAgent(catalog: AgentCatalog, slug: string): AgentDefinition | string {
  const agent = catalog.get(slug.toLowerCase());
  if (!agent) {
    const broken = catalog.problems.filter((p) => p.file.includes(`/${slug}/`) || p.file.endsWith(`/${slug}.md`));
    if (broken.length) return `Agent "${slug}" has problems and was skipped: ${broken.map(formatProblem).join('; ')}`;
    const known = catalog.agents.filter((a) => a.enabled).map((a) => a.slug);
    return `Unknown agent "${slug}". ${known.length ? `Known: ${known.join(', ')}.` : 'No agents are defined (see /agents).'}`;
  }
  if (!agent.enabled) return `Agent "${slug}" is disabled: /agents enable ${agent.slug} turns it on.`;
  return agent;
}
