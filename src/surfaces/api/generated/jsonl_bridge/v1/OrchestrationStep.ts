// Original file: proto/jsonl_bridge/v1/subagent.proto

export interface OrchestrationStep {
  id?: string;
  name?: string;
  prompt?: string;
  model?: string;
  workingDirectory?: string;
  allowedTools?: string[];
  dependsOn?: string[];
  maxTurns?: number;
  autoApprovePermissions?: boolean;
  cli?: string;
  agent?: string;
}

export interface OrchestrationStep__Output {
  id: string;
  name: string;
  prompt: string;
  model: string;
  workingDirectory: string;
  allowedTools: string[];
  dependsOn: string[];
  maxTurns: number;
  autoApprovePermissions: boolean;
  cli: string;
  agent: string;
}
