import { join } from 'node:path';
import { buildPolicy, type PolicyRequest, type ToolPolicy } from '../policy/tool-policy.ts';
import { formatProblem } from './problem.ts';
import { loadAgents } from './load.ts';
import type { AgentCatalog } from './types.ts';

export interface AgentChoice {
  /** What the run takes from the definition; explicit spawn arguments win over it. */
  label: string;
  agent: string;
  cli?: string;
  model?: string;
  agentPrompt: string;
  maxTurns?: number;
  allowedTools?: string[];
  disallowedTools?: string[];
}

/** Where user-wide agent definitions live. */
export function userAgentsDir(dataDir: string): string {
  return join(dataDir, 'agents');
}

export function catalogFor(workdir: string, dataDir: string, knownClis: readonly string[]): Promise<AgentCatalog> {
  return loadAgents({ workdir, userDir: userAgentsDir(dataDir), knownClis });
}

/** The named agent, ready to spawn, or a sentence saying why it cannot be. */
export function chooseAgent(catalog: AgentCatalog, slug: string): AgentChoice | string {
  const agent = catalog.get(slug.toLowerCase());
  if (!agent) {
    const broken = catalog.problems.filter((p) => p.file.includes(`/${slug}/`) || p.file.endsWith(`/${slug}.md`));
    if (broken.length) return `Agent "${slug}" has problems and was skipped: ${broken.map(formatProblem).join('; ')}`;
    const known = catalog.agents.filter((a) => a.enabled).map((a) => a.slug);
    return `Unknown agent "${slug}". ${known.length ? `Known: ${known.join(', ')}.` : 'No agents are defined (see /agents).'}`;
  }
  if (!agent.enabled) return `Agent "${slug}" is disabled (enabled: false in ${agent.file}).`;
  return {
    label: agent.name,
    agent: agent.slug,
    ...(agent.cli ? { cli: agent.cli } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    agentPrompt: agent.prompt,
    ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}),
    ...(agent.allowedTools ? { allowedTools: agent.allowedTools } : {}),
    ...(agent.disallowedTools ? { disallowedTools: agent.disallowedTools } : {}),
  };
}

/** The run's policy: the spawn's own tool lists and switches, else the agent's lists. */
export function policyWithAgent(request: PolicyRequest, agent: AgentChoice | undefined): ToolPolicy | undefined {
  return buildPolicy({
    ...request,
    allowedTools: request.allowedTools ?? agent?.allowedTools,
    disallowedTools: request.disallowedTools ?? agent?.disallowedTools,
  });
}

/** The spawn fields an agent supplies; the caller spreads its own explicit values over them. */
export function agentSpawnFields(agent: AgentChoice | undefined): { label?: string; cli?: string; model?: string; agent?: string; agentPrompt?: string; maxTurns?: number } {
  if (!agent) return {};
  return {
    label: agent.label,
    agent: agent.agent,
    agentPrompt: agent.agentPrompt,
    ...(agent.cli ? { cli: agent.cli } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}),
  };
}
