import type { BridgeTool } from './tool.ts';
import { spawnSubagent } from './definitions/spawn-subagent.ts';
import { createOrchestration } from './definitions/create-orchestration.ts';
import { approveTool } from './definitions/approve-tool.ts';
import { sendFile } from './definitions/send-file.ts';
import { listSubagents, stopSubagent, subagentLog, subagentStatus } from './definitions/run-tools.ts';
import { schedule } from './definitions/schedule.ts';

/**
 * Every MCP tool the bridge serves, in the order agents see them listed. A new tool is a
 * definition in `definitions/` and a line here; `npm run manifest` then writes it into manifest.json.
 */
export const TOOLS: readonly BridgeTool[] = [
  spawnSubagent,
  listSubagents,
  subagentStatus,
  subagentLog,
  createOrchestration,
  approveTool,
  sendFile,
  stopSubagent,
  schedule,
];

/** The names of the tools offered to sessions of these grants. */
export function toolsGranted(...grants: BridgeTool['grant'][]): ReadonlySet<string> {
  return new Set(TOOLS.filter((tool) => grants.includes(tool.grant)).map((tool) => tool.name));
}
