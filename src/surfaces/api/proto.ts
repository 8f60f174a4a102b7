import { join } from 'node:path';
import { loadPackageDefinition } from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/chat.ts';
import { REPO_ROOT } from '../../kernel/repo-root.ts';

/** Where the .proto files are: a file imports another by its path from here (`jsonl_bridge/v1/subagent.proto`), as protoc and grpcurl do. */
const PROTO_DIR = join(REPO_ROOT, 'proto');

/** The services' definitions, loaded from the .proto files at start (their types are generated from the same files: `npm run generate`). */
export const PROTO_FILES = ['jsonl_bridge/v1/subagent.proto', 'jsonl_bridge/v1/chat.proto'];

/** What `npm run generate` assumes: 64-bit integers as numbers, enums as names, every field present, oneofs named. */
export const LOAD_OPTIONS: Options = { longs: Number, enums: String, defaults: true, oneofs: true };

/** The package `jsonl_bridge.v1`: the SubagentService and the ChatService, with their messages. */
export function loadServices(): ProtoGrpcType['jsonl_bridge']['v1'] {
  return (loadPackageDefinition(loadSync(PROTO_FILES, { ...LOAD_OPTIONS, includeDirs: [PROTO_DIR] })) as unknown as ProtoGrpcType).jsonl_bridge.v1;
}
