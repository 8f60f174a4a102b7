import { formatProblem } from './problem.ts';
import type { AgentCatalog, AgentDefinition } from './types.ts';

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
