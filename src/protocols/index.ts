import { claudeStreamJson } from './claude-stream-json.ts';
import { codexExecJson } from './codex-exec-json.ts';
import type { Decoder } from './decoder.ts';
import { droidStreamJson } from './droid-stream-json.ts';

export type { Decoder } from './decoder.ts';
export type * from './events.ts';

/** Every JSONL dialect the bridge speaks, by the name adapter manifests use in `protocol`. */
export const decoders: Readonly<Record<string, Decoder<any>>> = {
  [claudeStreamJson.protocol]: claudeStreamJson,
  [codexExecJson.protocol]: codexExecJson,
  [droidStreamJson.protocol]: droidStreamJson,
};

export const protocolNames = Object.keys(decoders);
