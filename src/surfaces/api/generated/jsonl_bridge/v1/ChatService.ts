// Original file: proto/jsonl_bridge/v1/chat.proto

import type * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { ChatInfo as _jsonl_bridge_v1_ChatInfo, ChatInfo__Output as _jsonl_bridge_v1_ChatInfo__Output } from '../../jsonl_bridge/v1/ChatInfo.ts';
import type {
  ChatTurnEvent as _jsonl_bridge_v1_ChatTurnEvent,
  ChatTurnEvent__Output as _jsonl_bridge_v1_ChatTurnEvent__Output,
} from '../../jsonl_bridge/v1/ChatTurnEvent.ts';
import type {
  GetChatRequest as _jsonl_bridge_v1_GetChatRequest,
  GetChatRequest__Output as _jsonl_bridge_v1_GetChatRequest__Output,
} from '../../jsonl_bridge/v1/GetChatRequest.ts';
import type {
  SendMessageRequest as _jsonl_bridge_v1_SendMessageRequest,
  SendMessageRequest__Output as _jsonl_bridge_v1_SendMessageRequest__Output,
} from '../../jsonl_bridge/v1/SendMessageRequest.ts';

export interface ChatServiceClient extends grpc.Client {
  GetChat(
    argument: _jsonl_bridge_v1_GetChatRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>,
  ): grpc.ClientUnaryCall;
  GetChat(
    argument: _jsonl_bridge_v1_GetChatRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>,
  ): grpc.ClientUnaryCall;
  GetChat(
    argument: _jsonl_bridge_v1_GetChatRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>,
  ): grpc.ClientUnaryCall;
  GetChat(argument: _jsonl_bridge_v1_GetChatRequest, callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>): grpc.ClientUnaryCall;
  getChat(
    argument: _jsonl_bridge_v1_GetChatRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>,
  ): grpc.ClientUnaryCall;
  getChat(
    argument: _jsonl_bridge_v1_GetChatRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>,
  ): grpc.ClientUnaryCall;
  getChat(
    argument: _jsonl_bridge_v1_GetChatRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>,
  ): grpc.ClientUnaryCall;
  getChat(argument: _jsonl_bridge_v1_GetChatRequest, callback: grpc.requestCallback<_jsonl_bridge_v1_ChatInfo__Output>): grpc.ClientUnaryCall;

  SendMessage(
    argument: _jsonl_bridge_v1_SendMessageRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_ChatTurnEvent__Output>;
  SendMessage(argument: _jsonl_bridge_v1_SendMessageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_jsonl_bridge_v1_ChatTurnEvent__Output>;
  sendMessage(
    argument: _jsonl_bridge_v1_SendMessageRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_jsonl_bridge_v1_ChatTurnEvent__Output>;
  sendMessage(argument: _jsonl_bridge_v1_SendMessageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_jsonl_bridge_v1_ChatTurnEvent__Output>;
}

export interface ChatServiceHandlers extends grpc.UntypedServiceImplementation {
  GetChat: grpc.handleUnaryCall<_jsonl_bridge_v1_GetChatRequest__Output, _jsonl_bridge_v1_ChatInfo>;

  SendMessage: grpc.handleServerStreamingCall<_jsonl_bridge_v1_SendMessageRequest__Output, _jsonl_bridge_v1_ChatTurnEvent>;
}

export interface ChatServiceDefinition extends grpc.ServiceDefinition {
  GetChat: MethodDefinition<
    _jsonl_bridge_v1_GetChatRequest,
    _jsonl_bridge_v1_ChatInfo,
    _jsonl_bridge_v1_GetChatRequest__Output,
    _jsonl_bridge_v1_ChatInfo__Output
  >;
  SendMessage: MethodDefinition<
    _jsonl_bridge_v1_SendMessageRequest,
    _jsonl_bridge_v1_ChatTurnEvent,
    _jsonl_bridge_v1_SendMessageRequest__Output,
    _jsonl_bridge_v1_ChatTurnEvent__Output
  >;
}
