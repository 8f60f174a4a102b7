import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AgentEvent as _jsonl_bridge_v1_AgentEvent, AgentEvent__Output as _jsonl_bridge_v1_AgentEvent__Output } from './jsonl_bridge/v1/AgentEvent.ts';
import type { Blocked as _jsonl_bridge_v1_Blocked, Blocked__Output as _jsonl_bridge_v1_Blocked__Output } from './jsonl_bridge/v1/Blocked.ts';
import type {
  CancelSubagentRequest as _jsonl_bridge_v1_CancelSubagentRequest,
  CancelSubagentRequest__Output as _jsonl_bridge_v1_CancelSubagentRequest__Output,
} from './jsonl_bridge/v1/CancelSubagentRequest.ts';
import type {
  CancelSubagentResponse as _jsonl_bridge_v1_CancelSubagentResponse,
  CancelSubagentResponse__Output as _jsonl_bridge_v1_CancelSubagentResponse__Output,
} from './jsonl_bridge/v1/CancelSubagentResponse.ts';
import type { ChatRef as _jsonl_bridge_v1_ChatRef, ChatRef__Output as _jsonl_bridge_v1_ChatRef__Output } from './jsonl_bridge/v1/ChatRef.ts';
import type { Error as _jsonl_bridge_v1_Error, Error__Output as _jsonl_bridge_v1_Error__Output } from './jsonl_bridge/v1/Error.ts';
import type { Exit as _jsonl_bridge_v1_Exit, Exit__Output as _jsonl_bridge_v1_Exit__Output } from './jsonl_bridge/v1/Exit.ts';
import type { InputState as _jsonl_bridge_v1_InputState, InputState__Output as _jsonl_bridge_v1_InputState__Output } from './jsonl_bridge/v1/InputState.ts';
import type {
  ListSubagentsRequest as _jsonl_bridge_v1_ListSubagentsRequest,
  ListSubagentsRequest__Output as _jsonl_bridge_v1_ListSubagentsRequest__Output,
} from './jsonl_bridge/v1/ListSubagentsRequest.ts';
import type {
  ListSubagentsResponse as _jsonl_bridge_v1_ListSubagentsResponse,
  ListSubagentsResponse__Output as _jsonl_bridge_v1_ListSubagentsResponse__Output,
} from './jsonl_bridge/v1/ListSubagentsResponse.ts';
import type { LogLine as _jsonl_bridge_v1_LogLine, LogLine__Output as _jsonl_bridge_v1_LogLine__Output } from './jsonl_bridge/v1/LogLine.ts';
import type {
  OrchestrationCompleted as _jsonl_bridge_v1_OrchestrationCompleted,
  OrchestrationCompleted__Output as _jsonl_bridge_v1_OrchestrationCompleted__Output,
} from './jsonl_bridge/v1/OrchestrationCompleted.ts';
import type {
  OrchestrationEvent as _jsonl_bridge_v1_OrchestrationEvent,
  OrchestrationEvent__Output as _jsonl_bridge_v1_OrchestrationEvent__Output,
} from './jsonl_bridge/v1/OrchestrationEvent.ts';
import type {
  OrchestrationFailed as _jsonl_bridge_v1_OrchestrationFailed,
  OrchestrationFailed__Output as _jsonl_bridge_v1_OrchestrationFailed__Output,
} from './jsonl_bridge/v1/OrchestrationFailed.ts';
import type {
  OrchestrationPlan as _jsonl_bridge_v1_OrchestrationPlan,
  OrchestrationPlan__Output as _jsonl_bridge_v1_OrchestrationPlan__Output,
} from './jsonl_bridge/v1/OrchestrationPlan.ts';
import type {
  OrchestrationResponse as _jsonl_bridge_v1_OrchestrationResponse,
  OrchestrationResponse__Output as _jsonl_bridge_v1_OrchestrationResponse__Output,
} from './jsonl_bridge/v1/OrchestrationResponse.ts';
import type {
  OrchestrationStep as _jsonl_bridge_v1_OrchestrationStep,
  OrchestrationStep__Output as _jsonl_bridge_v1_OrchestrationStep__Output,
} from './jsonl_bridge/v1/OrchestrationStep.ts';
import type { Result as _jsonl_bridge_v1_Result, Result__Output as _jsonl_bridge_v1_Result__Output } from './jsonl_bridge/v1/Result.ts';
import type {
  RevokeAutoApproveRequest as _jsonl_bridge_v1_RevokeAutoApproveRequest,
  RevokeAutoApproveRequest__Output as _jsonl_bridge_v1_RevokeAutoApproveRequest__Output,
} from './jsonl_bridge/v1/RevokeAutoApproveRequest.ts';
import type {
  RevokeAutoApproveResponse as _jsonl_bridge_v1_RevokeAutoApproveResponse,
  RevokeAutoApproveResponse__Output as _jsonl_bridge_v1_RevokeAutoApproveResponse__Output,
} from './jsonl_bridge/v1/RevokeAutoApproveResponse.ts';
import type { RunEnded as _jsonl_bridge_v1_RunEnded, RunEnded__Output as _jsonl_bridge_v1_RunEnded__Output } from './jsonl_bridge/v1/RunEnded.ts';
import type {
  SpawnSubagentRequest as _jsonl_bridge_v1_SpawnSubagentRequest,
  SpawnSubagentRequest__Output as _jsonl_bridge_v1_SpawnSubagentRequest__Output,
} from './jsonl_bridge/v1/SpawnSubagentRequest.ts';
import type {
  SpawnSubagentResponse as _jsonl_bridge_v1_SpawnSubagentResponse,
  SpawnSubagentResponse__Output as _jsonl_bridge_v1_SpawnSubagentResponse__Output,
} from './jsonl_bridge/v1/SpawnSubagentResponse.ts';
import type { Started as _jsonl_bridge_v1_Started, Started__Output as _jsonl_bridge_v1_Started__Output } from './jsonl_bridge/v1/Started.ts';
import type {
  StepCompleted as _jsonl_bridge_v1_StepCompleted,
  StepCompleted__Output as _jsonl_bridge_v1_StepCompleted__Output,
} from './jsonl_bridge/v1/StepCompleted.ts';
import type { StepFailed as _jsonl_bridge_v1_StepFailed, StepFailed__Output as _jsonl_bridge_v1_StepFailed__Output } from './jsonl_bridge/v1/StepFailed.ts';
import type {
  StepStarted as _jsonl_bridge_v1_StepStarted,
  StepStarted__Output as _jsonl_bridge_v1_StepStarted__Output,
} from './jsonl_bridge/v1/StepStarted.ts';
import type {
  SubagentInfo as _jsonl_bridge_v1_SubagentInfo,
  SubagentInfo__Output as _jsonl_bridge_v1_SubagentInfo__Output,
} from './jsonl_bridge/v1/SubagentInfo.ts';
import type {
  SubagentInput as _jsonl_bridge_v1_SubagentInput,
  SubagentInput__Output as _jsonl_bridge_v1_SubagentInput__Output,
} from './jsonl_bridge/v1/SubagentInput.ts';
import type {
  SubagentInputResponse as _jsonl_bridge_v1_SubagentInputResponse,
  SubagentInputResponse__Output as _jsonl_bridge_v1_SubagentInputResponse__Output,
} from './jsonl_bridge/v1/SubagentInputResponse.ts';
import type {
  SubagentServiceClient as _jsonl_bridge_v1_SubagentServiceClient,
  SubagentServiceDefinition as _jsonl_bridge_v1_SubagentServiceDefinition,
} from './jsonl_bridge/v1/SubagentService.ts';
import type { Text as _jsonl_bridge_v1_Text, Text__Output as _jsonl_bridge_v1_Text__Output } from './jsonl_bridge/v1/Text.ts';
import type { ToolEnd as _jsonl_bridge_v1_ToolEnd, ToolEnd__Output as _jsonl_bridge_v1_ToolEnd__Output } from './jsonl_bridge/v1/ToolEnd.ts';
import type { ToolStart as _jsonl_bridge_v1_ToolStart, ToolStart__Output as _jsonl_bridge_v1_ToolStart__Output } from './jsonl_bridge/v1/ToolStart.ts';
import type {
  WatchOrchestrationRequest as _jsonl_bridge_v1_WatchOrchestrationRequest,
  WatchOrchestrationRequest__Output as _jsonl_bridge_v1_WatchOrchestrationRequest__Output,
} from './jsonl_bridge/v1/WatchOrchestrationRequest.ts';
import type {
  WatchSubagentRequest as _jsonl_bridge_v1_WatchSubagentRequest,
  WatchSubagentRequest__Output as _jsonl_bridge_v1_WatchSubagentRequest__Output,
} from './jsonl_bridge/v1/WatchSubagentRequest.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new (...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  jsonl_bridge: {
    v1: {
      AgentEvent: MessageTypeDefinition<_jsonl_bridge_v1_AgentEvent, _jsonl_bridge_v1_AgentEvent__Output>;
      Blocked: MessageTypeDefinition<_jsonl_bridge_v1_Blocked, _jsonl_bridge_v1_Blocked__Output>;
      CancelSubagentRequest: MessageTypeDefinition<_jsonl_bridge_v1_CancelSubagentRequest, _jsonl_bridge_v1_CancelSubagentRequest__Output>;
      CancelSubagentResponse: MessageTypeDefinition<_jsonl_bridge_v1_CancelSubagentResponse, _jsonl_bridge_v1_CancelSubagentResponse__Output>;
      ChatRef: MessageTypeDefinition<_jsonl_bridge_v1_ChatRef, _jsonl_bridge_v1_ChatRef__Output>;
      Delivery: EnumTypeDefinition;
      Error: MessageTypeDefinition<_jsonl_bridge_v1_Error, _jsonl_bridge_v1_Error__Output>;
      Exit: MessageTypeDefinition<_jsonl_bridge_v1_Exit, _jsonl_bridge_v1_Exit__Output>;
      InputStage: EnumTypeDefinition;
      InputState: MessageTypeDefinition<_jsonl_bridge_v1_InputState, _jsonl_bridge_v1_InputState__Output>;
      ListSubagentsRequest: MessageTypeDefinition<_jsonl_bridge_v1_ListSubagentsRequest, _jsonl_bridge_v1_ListSubagentsRequest__Output>;
      ListSubagentsResponse: MessageTypeDefinition<_jsonl_bridge_v1_ListSubagentsResponse, _jsonl_bridge_v1_ListSubagentsResponse__Output>;
      LogLine: MessageTypeDefinition<_jsonl_bridge_v1_LogLine, _jsonl_bridge_v1_LogLine__Output>;
      OrchestrationCompleted: MessageTypeDefinition<_jsonl_bridge_v1_OrchestrationCompleted, _jsonl_bridge_v1_OrchestrationCompleted__Output>;
      OrchestrationEvent: MessageTypeDefinition<_jsonl_bridge_v1_OrchestrationEvent, _jsonl_bridge_v1_OrchestrationEvent__Output>;
      OrchestrationFailed: MessageTypeDefinition<_jsonl_bridge_v1_OrchestrationFailed, _jsonl_bridge_v1_OrchestrationFailed__Output>;
      OrchestrationPlan: MessageTypeDefinition<_jsonl_bridge_v1_OrchestrationPlan, _jsonl_bridge_v1_OrchestrationPlan__Output>;
      OrchestrationResponse: MessageTypeDefinition<_jsonl_bridge_v1_OrchestrationResponse, _jsonl_bridge_v1_OrchestrationResponse__Output>;
      OrchestrationStep: MessageTypeDefinition<_jsonl_bridge_v1_OrchestrationStep, _jsonl_bridge_v1_OrchestrationStep__Output>;
      OrchestrationStrategy: EnumTypeDefinition;
      Result: MessageTypeDefinition<_jsonl_bridge_v1_Result, _jsonl_bridge_v1_Result__Output>;
      RevokeAutoApproveRequest: MessageTypeDefinition<_jsonl_bridge_v1_RevokeAutoApproveRequest, _jsonl_bridge_v1_RevokeAutoApproveRequest__Output>;
      RevokeAutoApproveResponse: MessageTypeDefinition<_jsonl_bridge_v1_RevokeAutoApproveResponse, _jsonl_bridge_v1_RevokeAutoApproveResponse__Output>;
      RunEnded: MessageTypeDefinition<_jsonl_bridge_v1_RunEnded, _jsonl_bridge_v1_RunEnded__Output>;
      SpawnSubagentRequest: MessageTypeDefinition<_jsonl_bridge_v1_SpawnSubagentRequest, _jsonl_bridge_v1_SpawnSubagentRequest__Output>;
      SpawnSubagentResponse: MessageTypeDefinition<_jsonl_bridge_v1_SpawnSubagentResponse, _jsonl_bridge_v1_SpawnSubagentResponse__Output>;
      Started: MessageTypeDefinition<_jsonl_bridge_v1_Started, _jsonl_bridge_v1_Started__Output>;
      StepCompleted: MessageTypeDefinition<_jsonl_bridge_v1_StepCompleted, _jsonl_bridge_v1_StepCompleted__Output>;
      StepFailed: MessageTypeDefinition<_jsonl_bridge_v1_StepFailed, _jsonl_bridge_v1_StepFailed__Output>;
      StepStarted: MessageTypeDefinition<_jsonl_bridge_v1_StepStarted, _jsonl_bridge_v1_StepStarted__Output>;
      SubagentInfo: MessageTypeDefinition<_jsonl_bridge_v1_SubagentInfo, _jsonl_bridge_v1_SubagentInfo__Output>;
      SubagentInput: MessageTypeDefinition<_jsonl_bridge_v1_SubagentInput, _jsonl_bridge_v1_SubagentInput__Output>;
      SubagentInputResponse: MessageTypeDefinition<_jsonl_bridge_v1_SubagentInputResponse, _jsonl_bridge_v1_SubagentInputResponse__Output>;
      SubagentService: SubtypeConstructor<typeof grpc.Client, _jsonl_bridge_v1_SubagentServiceClient> & { service: _jsonl_bridge_v1_SubagentServiceDefinition };
      SubagentStatus: EnumTypeDefinition;
      Text: MessageTypeDefinition<_jsonl_bridge_v1_Text, _jsonl_bridge_v1_Text__Output>;
      ToolEnd: MessageTypeDefinition<_jsonl_bridge_v1_ToolEnd, _jsonl_bridge_v1_ToolEnd__Output>;
      ToolStart: MessageTypeDefinition<_jsonl_bridge_v1_ToolStart, _jsonl_bridge_v1_ToolStart__Output>;
      WatchOrchestrationRequest: MessageTypeDefinition<_jsonl_bridge_v1_WatchOrchestrationRequest, _jsonl_bridge_v1_WatchOrchestrationRequest__Output>;
      WatchSubagentRequest: MessageTypeDefinition<_jsonl_bridge_v1_WatchSubagentRequest, _jsonl_bridge_v1_WatchSubagentRequest__Output>;
    };
  };
}
