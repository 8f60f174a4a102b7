import { claudeControl, claudeStreamJson, claudeUserMessage } from './claude-stream-json.ts';
import type { LiveControl } from './control.ts';
import { codexExecJson } from './codex-exec-json.ts';
import type { Decoder } from './decoder.ts';
import { droidStreamJson } from './droid-stream-json.ts';

export type { Decoder } from './decoder.ts';
export type { LiveControl } from './control.ts';
export type * from './events.ts';

/** Every JSONL dialect the bridge speaks, by the name adapter manifests use in `protocol`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each decoder keeps a state of its own type
export const decoders: Readonly<Record<string, Decoder<any>>> = {
  [claudeStreamJson.protocol]: claudeStreamJson,
  [codexExecJson.protocol]: codexExecJson,
  [droidStreamJson.protocol]: droidStreamJson,
};

export const protocolNames = Object.keys(decoders);

/**
 * The dialects a CLI can also be written to while it works (an adapter's `streamInput`): one
 * message as one line of its standard input, named by an id the CLI reports back.
 */
export const inputEncoders: Readonly<Record<string, (text: string, id: string) => string>> = {
  [claudeStreamJson.protocol]: claudeUserMessage,
};

/** The dialects with a control channel (an adapter's `permissions.control`): interrupts, plan mode, permission answers. */
export const liveControls: Readonly<Record<string, LiveControl>> = {
  [claudeStreamJson.protocol]: claudeControl,
};
