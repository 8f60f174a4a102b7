export { loadAgents, type LoadAgentsOptions } from './load.ts';
export { formatProblem } from './problem.ts';
export type { AgentCatalog, AgentDefinition, AgentProblem, AgentSource } from './types.ts';
