import { acpDecoder } from './acp-updates.ts';
import { acpWire } from './acp-wire.ts';
import { claudeStreamJson, claudeUserMessage, claudeWire } from './claude-stream-json.ts';
import { codexAppServer } from './codex-app-server.ts';
import { codexAppServerWire } from './codex-app-server-wire.ts';
import { codexExecJson } from './codex-exec-json.ts';
import type { Decoder, Metering } from './decoder.ts';
import { droidStreamJson } from './droid-stream-json.ts';
import type { LiveWireFactory } from './live-wire.ts';

export type { Decoder, Metering } from './decoder.ts';
export type { AgentCommand, LiveWire, LiveWireFactory, StdioMcp, WireIo, WireSession } from './live-wire.ts';
export type * from './events.ts';

/** Every JSONL dialect a CLI's one-shot runs speak, by the name adapter manifests use in `protocol`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each decoder keeps a state of its own type
export const decoders: Readonly<Record<string, Decoder<any>>> = {
  [claudeStreamJson.protocol]: claudeStreamJson,
  [codexExecJson.protocol]: codexExecJson,
  [droidStreamJson.protocol]: droidStreamJson,
  // An ACP agent has no one-shot dialect: every turn of it is a live one (its manifest's `live`).
  [acpDecoder.protocol]: acpDecoder,
};

export const protocolNames = Object.keys(decoders);

/** The dialects with no one-shot runs: a CLI speaking one is always live (its manifest's `live`), with no prompt or resume arguments. */
export const liveOnlyProtocols: ReadonlySet<string> = new Set([acpDecoder.protocol]);

/**
 * The dialects a CLI can also be written to while it works (an adapter's `streamInput`): one
 * message as one line of its standard input, named by an id the CLI reports back.
 */
export const inputEncoders: Readonly<Record<string, (text: string, id: string) => string>> = {
  [claudeStreamJson.protocol]: claudeUserMessage,
};

/** A dialect a CLI kept running between turns speaks: how its output reads, and how it is driven. */
export interface LiveDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each decoder keeps a state of its own type
  decoder: Decoder<any>;
  wire: LiveWireFactory;
  /** The agent can be told to plan first, and waits for its plan's approval (its wire's `setPlanning`). */
  plans: boolean;
  /** False: the dialect never names a message back (ACP), known before its first line: none is ever sent into a running turn. */
  namesMessages?: false;
  /** It offers the bridge's MCP server as its session opens (ACP), over stdio where the agent takes no http: the relay must be in its walls. */
  offersMcp?: true;
}

/**
 * The dialects of live CLIs, by protocol name: Claude Code's own stream-json with its control
 * channel (`streamInput` and `permissions.control`), codex's app server and any ACP agent (their manifests' `live`).
 */
export const liveDialects: Readonly<Record<string, LiveDialect>> = {
  [claudeStreamJson.protocol]: { decoder: claudeStreamJson, wire: claudeWire, plans: true },
  [codexAppServer.protocol]: { decoder: codexAppServer, wire: codexAppServerWire, plans: false },
  [acpDecoder.protocol]: { decoder: acpDecoder, wire: acpWire, plans: false, namesMessages: false, offersMcp: true },
};

const everyDecoder = [...Object.values(decoders), ...Object.values(liveDialects).map((dialect) => dialect.decoder)];

/** Every dialect's tool names in Claude Code's, which approval rules are written in (`shell` → `Bash`). */
export const ruleToolNames: Readonly<Record<string, string>> = Object.assign(Object.create(null), ...everyDecoder.map((decoder) => decoder.toolNames));

/** What the output of a dialect (one-shot or live) says of cost. */
export function meteringOf(protocol: string): Metering {
  return everyDecoder.find((decoder) => decoder.protocol === protocol)?.metering ?? {};
}
