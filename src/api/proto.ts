import { fileURLToPath } from 'node:url';
import { loadPackageDefinition, type ServiceDefinition } from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/subagent.ts';

/** The service's definition, loaded from the .proto at start (its types are generated from the same file: `npm run generate`). */
export const PROTO_FILE = fileURLToPath(new URL('../../proto/jsonl_bridge/v1/subagent.proto', import.meta.url));

/** What `npm run generate` assumes: 64-bit integers as numbers, enums as names, every field present, oneofs named. */
export const LOAD_OPTIONS: Options = { longs: Number, enums: String, defaults: true, oneofs: true };

export function loadSubagentService(): ProtoGrpcType['jsonl_bridge']['v1'] {
  return (loadPackageDefinition(loadSync(PROTO_FILE, LOAD_OPTIONS)) as unknown as ProtoGrpcType).jsonl_bridge.v1;
}

export type { ServiceDefinition };
