// Original file: proto/jsonl_bridge/v1/subagent.proto

import type * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { AgentEvent as _jsonl_bridge_v1_AgentEvent, AgentEvent__Output as _jsonl_bridge_v1_AgentEvent__Output } from '../../jsonl_bridge/v1/AgentEvent.ts';
import type {
  CancelSubagentRequest as _jsonl_bridge_v1_CancelSubagentRequest,
  CancelSubagentRequest__Output as _jsonl_bridge_v1_CancelSubagentRequest__Output,
} from '../../jsonl_bridge/v1/CancelSubagentRequest.ts';
import type {
  CancelSubagentResponse as _jsonl_bridge_v1_CancelSubagentResponse,
  CancelSubagentResponse__Output as _jsonl_bridge_v1_CancelSubagentResponse__Output,
} from '../../jsonl_bridge/v1/CancelSubagentResponse.ts';
import type {
  ListSubagentsRequest as _jsonl_bridge_v1_ListSubagentsRequest,
  ListSubagentsRequest__Output as _jsonl_bridge_v1_ListSubagentsRequest__Output,
} from '../../jsonl_bridge/v1/ListSubagentsRequest.ts';
import type {
  ListSubagentsResponse as _jsonl_bridge_v1_ListSubagentsResponse,
  ListSubagentsResponse__Output as _jsonl_bridge_v1_ListSubagentsResponse__Output,
} from '../../jsonl_bridge/v1/ListSubagentsResponse.ts';
import type {
  OrchestrationEvent as _jsonl_bridge_v1_OrchestrationEvent,
  OrchestrationEvent__Output as _jsonl_bridge_v1_OrchestrationEvent__Output,
} from '../../jsonl_bridge/v1/OrchestrationEvent.ts';
import type {
  OrchestrationPlan as _jsonl_bridge_v1_OrchestrationPlan,
  OrchestrationPlan__Output as _jsonl_bridge_v1_OrchestrationPlan__Output,
} from '../../jsonl_bridge/v1/OrchestrationPlan.ts';
import type {
  OrchestrationResponse as _jsonl_bridge_v1_OrchestrationResponse,
  OrchestrationResponse__Output as _jsonl_bridge_v1_OrchestrationResponse__Output,
} from '../../jsonl_bridge/v1/OrchestrationResponse.ts';
import type {
  RevokeAutoApproveRequest as _jsonl_bridge_v1_RevokeAutoApproveRequest,
  RevokeAutoApproveRequest__Output as _jsonl_bridge_v1_RevokeAutoApproveRequest__Output,
} from '../../jsonl_bridge/v1/RevokeAutoApproveRequest.ts';
import type {
  RevokeAutoApproveResponse as _jsonl_bridge_v1_RevokeAutoApproveResponse,
  RevokeAutoApproveResponse__Output as _jsonl_bridge_v1_RevokeAutoApproveResponse__Output,
} from '../../jsonl_bridge/v1/RevokeAutoApproveResponse.ts';
import type {
  SpawnSubagentRequest as _jsonl_bridge_v1_SpawnSubagentRequest,
  SpawnSubagentRequest__Output as _jsonl_bridge_v1_SpawnSubagentRequest__Output,
} from '../../jsonl_bridge/v1/SpawnSubagentRequest.ts';
import type {
  SpawnSubagentResponse as _jsonl_bridge_v1_SpawnSubagentResponse,
  SpawnSubagentResponse__Output as _jsonl_bridge_v1_SpawnSubagentResponse__Output,
} from '../../jsonl_bridge/v1/SpawnSubagentResponse.ts';
import type {
  SubagentInput as _jsonl_bridge_v1_SubagentInput,
  SubagentInput__Output as _jsonl_bridge_v1_SubagentInput__Output,
} from '../../jsonl_bridge/v1/SubagentInput.ts';
import type {
  SubagentInputResponse as _jsonl_bridge_v1_SubagentInputResponse,
  SubagentInputResponse__Output as _jsonl_bridge_v1_SubagentInputResponse__Output,
} from '../../jsonl_bridge/v1/SubagentInputResponse.ts';
import type {
  WatchOrchestrationRequest as _jsonl_bridge_v1_WatchOrchestrationRequest,
  WatchOrchestrationRequest__Output as _jsonl_bridge_v1_WatchOrchestrationRequest__Output,
} from '../../jsonl_bridge/v1/WatchOrchestrationRequest.ts';
import type {
  WatchSubagentRequest as _jsonl_bridge_v1_WatchSubagentRequest,
  WatchSubagentRequest__Output as _jsonl_bridge_v1_WatchSubagentRequest__Output,
} from '../../jsonl_bridge/v1/WatchSubagentRequest.ts';

export interface SubagentServiceClient extends grpc.Client {
  CancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  CancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  CancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  CancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  cancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  cancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  cancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  cancelSubagent(
    argument: _jsonl_bridge_v1_CancelSubagentRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_CancelSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;

  CreateOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  CreateOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  CreateOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  CreateOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  createOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  createOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  createOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;
  createOrchestration(
    argument: _jsonl_bridge_v1_OrchestrationPlan,
    callback: grpc.requestCallback<_jsonl_bridge_v1_OrchestrationResponse__Output>,
  ): grpc.ClientUnaryCall;

  ListSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listSubagents(
    argument: _jsonl_bridge_v1_ListSubagentsRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ListSubagentsResponse__Output>,
  ): grpc.ClientUnaryCall;

  RevokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  RevokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  RevokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  RevokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  revokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  revokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  revokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;
  revokeAutoApprove(
    argument: _jsonl_bridge_v1_RevokeAutoApproveRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_RevokeAutoApproveResponse__Output>,
  ): grpc.ClientUnaryCall;

  SendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  SendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  SendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  SendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  sendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  sendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  sendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;
  sendToSubagent(
    argument: _jsonl_bridge_v1_SubagentInput,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SubagentInputResponse__Output>,
  ): grpc.ClientUnaryCall;

  SpawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  SpawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  SpawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  SpawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  spawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  spawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  spawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;
  spawnSubagent(
    argument: _jsonl_bridge_v1_SpawnSubagentRequest,
    callback: grpc.requestCallback<_jsonl_bridge_v1_SpawnSubagentResponse__Output>,
  ): grpc.ClientUnaryCall;

  WatchOrchestration(
    argument: _jsonl_bridge_v1_WatchOrchestrationRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_OrchestrationEvent__Output>;
  WatchOrchestration(
    argument: _jsonl_bridge_v1_WatchOrchestrationRequest,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_OrchestrationEvent__Output>;
  watchOrchestration(
    argument: _jsonl_bridge_v1_WatchOrchestrationRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_OrchestrationEvent__Output>;
  watchOrchestration(
    argument: _jsonl_bridge_v1_WatchOrchestrationRequest,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_OrchestrationEvent__Output>;

  WatchSubagent(
    argument: _jsonl_bridge_v1_WatchSubagentRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_AgentEvent__Output>;
  WatchSubagent(argument: _jsonl_bridge_v1_WatchSubagentRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_jsonl_bridge_v1_AgentEvent__Output>;
  watchSubagent(
    argument: _jsonl_bridge_v1_WatchSubagentRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_AgentEvent__Output>;
  watchSubagent(argument: _jsonl_bridge_v1_WatchSubagentRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_jsonl_bridge_v1_AgentEvent__Output>;
}

export interface SubagentServiceHandlers extends grpc.UntypedServiceImplementation {
  CancelSubagent: grpc.handleUnaryCall<_jsonl_bridge_v1_CancelSubagentRequest__Output, _jsonl_bridge_v1_CancelSubagentResponse>;

  CreateOrchestration: grpc.handleUnaryCall<_jsonl_bridge_v1_OrchestrationPlan__Output, _jsonl_bridge_v1_OrchestrationResponse>;

  ListSubagents: grpc.handleUnaryCall<_jsonl_bridge_v1_ListSubagentsRequest__Output, _jsonl_bridge_v1_ListSubagentsResponse>;

  RevokeAutoApprove: grpc.handleUnaryCall<_jsonl_bridge_v1_RevokeAutoApproveRequest__Output, _jsonl_bridge_v1_RevokeAutoApproveResponse>;

  SendToSubagent: grpc.handleUnaryCall<_jsonl_bridge_v1_SubagentInput__Output, _jsonl_bridge_v1_SubagentInputResponse>;

  SpawnSubagent: grpc.handleUnaryCall<_jsonl_bridge_v1_SpawnSubagentRequest__Output, _jsonl_bridge_v1_SpawnSubagentResponse>;

  WatchOrchestration: grpc.handleServerStreamingCall<_jsonl_bridge_v1_WatchOrchestrationRequest__Output, _jsonl_bridge_v1_OrchestrationEvent>;

  WatchSubagent: grpc.handleServerStreamingCall<_jsonl_bridge_v1_WatchSubagentRequest__Output, _jsonl_bridge_v1_AgentEvent>;
}

export interface SubagentServiceDefinition extends grpc.ServiceDefinition {
  CancelSubagent: MethodDefinition<
    _jsonl_bridge_v1_CancelSubagentRequest,
    _jsonl_bridge_v1_CancelSubagentResponse,
    _jsonl_bridge_v1_CancelSubagentRequest__Output,
    _jsonl_bridge_v1_CancelSubagentResponse__Output
  >;
  CreateOrchestration: MethodDefinition<
    _jsonl_bridge_v1_OrchestrationPlan,
    _jsonl_bridge_v1_OrchestrationResponse,
    _jsonl_bridge_v1_OrchestrationPlan__Output,
    _jsonl_bridge_v1_OrchestrationResponse__Output
  >;
  ListSubagents: MethodDefinition<
    _jsonl_bridge_v1_ListSubagentsRequest,
    _jsonl_bridge_v1_ListSubagentsResponse,
    _jsonl_bridge_v1_ListSubagentsRequest__Output,
    _jsonl_bridge_v1_ListSubagentsResponse__Output
  >;
  RevokeAutoApprove: MethodDefinition<
    _jsonl_bridge_v1_RevokeAutoApproveRequest,
    _jsonl_bridge_v1_RevokeAutoApproveResponse,
    _jsonl_bridge_v1_RevokeAutoApproveRequest__Output,
    _jsonl_bridge_v1_RevokeAutoApproveResponse__Output
  >;
  SendToSubagent: MethodDefinition<
    _jsonl_bridge_v1_SubagentInput,
    _jsonl_bridge_v1_SubagentInputResponse,
    _jsonl_bridge_v1_SubagentInput__Output,
    _jsonl_bridge_v1_SubagentInputResponse__Output
  >;
  SpawnSubagent: MethodDefinition<
    _jsonl_bridge_v1_SpawnSubagentRequest,
    _jsonl_bridge_v1_SpawnSubagentResponse,
    _jsonl_bridge_v1_SpawnSubagentRequest__Output,
    _jsonl_bridge_v1_SpawnSubagentResponse__Output
  >;
  WatchOrchestration: MethodDefinition<
    _jsonl_bridge_v1_WatchOrchestrationRequest,
    _jsonl_bridge_v1_OrchestrationEvent,
    _jsonl_bridge_v1_WatchOrchestrationRequest__Output,
    _jsonl_bridge_v1_OrchestrationEvent__Output
  >;
  WatchSubagent: MethodDefinition<
    _jsonl_bridge_v1_WatchSubagentRequest,
    _jsonl_bridge_v1_AgentEvent,
    _jsonl_bridge_v1_WatchSubagentRequest__Output,
    _jsonl_bridge_v1_AgentEvent__Output
  >;
}
