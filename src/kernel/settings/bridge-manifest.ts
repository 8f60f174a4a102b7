import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError, describeIssues } from '../errors/config-error.ts';
import { wholeNumber } from './variables.ts';

const command = z.object({ name: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), description: z.string().min(1).max(256), usage: z.string() }).strict();
const tool = z.object({ name: z.string().regex(/^[a-z][a-z0-9_]*$/), description: z.string().min(1), inputSchema: z.record(z.string(), z.unknown()) }).strict();
const positive = z.number().int().positive();

export const bridgeManifestSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    commands: z.array(command).min(1),
    tools: z.array(tool),
    settings: z
      .object({
        /** Progress messages are edited at most this often (chat apps rate-limit edits). */
        progressEditIntervalMs: positive,
        /** Answers longer than this go as a document with a preview instead of many messages. */
        answerAsDocumentOverChars: positive,
        stopGraceMs: z.number().int().nonnegative(),
        /** A permission request nobody answers in the chat within this long is denied. */
        approvalTimeoutSeconds: positive,
        /** A chat's turn still running after this long is stopped and reported as timed out. */
        turnTimeoutSeconds: positive,
        /**
         * A turn (or a subagent's) whose CLI shows no progress of the model this long ends, saying
         * why (BRIDGE_SILENCE_SECONDS; see SilenceWatch).
         */
        silenceSeconds: positive,
        /** The chat is warned this long before a turn times out. */
        turnTimeoutWarningSeconds: positive,
        /** Messages waiting behind a running turn, per chat; more are refused with a message. */
        maxQueuedMessages: positive,
        /** A command still working after this long is stopped, and the chat told: no command holds a chat longer. */
        commandTimeoutSeconds: positive,
        /** A file's download into the inbox, and `/file get` (zipping a large directory), may rightly take longer than a command: this long. */
        fileTransferTimeoutSeconds: positive,
        /** Files people send stay in a chat's `.bridge/inbox/` this long. */
        inboxRetentionHours: positive,
        /** A file sent without words waits for the user's next message; after this long the chat is reminded. */
        fileReminderSeconds: positive,
        subagents: z
          .object({
            maxConcurrent: positive,
            maxQueued: z.number().int().nonnegative(),
            globalMaxConcurrent: positive,
            timeoutSeconds: positive,
            retentionMinutes: z.number().nonnegative(),
            historyPerChat: positive,
            maxDepth: z.number().int().nonnegative(),
            announceTo: z.enum(['chat', 'agent', 'both']),
            logMaxBytes: positive,
          })
          .strict(),
        /** Workers (`npm run worker`), which hold runs' sessions, and chats' with BRIDGE_SESSION_WORKERS (BRIDGE_REDIS_URL). */
        workers: z
          .object({
            /** A worker that stops renewing its leases this long is taken for dead (BRIDGE_WORKER_LOCK_SECONDS). */
            lockSeconds: positive,
            /** Event streams stay in Redis this long after they were last written. */
            keepHours: positive,
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

export type BridgeManifest = z.infer<typeof bridgeManifestSchema>;
export type Settings = BridgeManifest['settings'];
export type SubagentSettings = Settings['subagents'];

export async function loadBridgeManifest(path: string): Promise<BridgeManifest> {
  const json = await readFile(path, 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch((error: Error) => {
      throw new ConfigError(`${path}: ${error.message}`);
    });
  const parsed = bridgeManifestSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${path}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** manifest.json's settings, with the variables that override some of them. */
export function bridgeSettings(env: NodeJS.ProcessEnv, { settings }: BridgeManifest): Settings {
  const { subagents, workers } = settings;
  return {
    ...settings,
    silenceSeconds: wholeNumber(env, 'BRIDGE_SILENCE_SECONDS', settings.silenceSeconds, 1),
    subagents: {
      ...subagents,
      maxConcurrent: wholeNumber(env, 'SUBAGENTS_MAX_CONCURRENT', subagents.maxConcurrent, 1),
      maxQueued: wholeNumber(env, 'SUBAGENTS_MAX_QUEUED', subagents.maxQueued, 0),
      timeoutSeconds: wholeNumber(env, 'SUBAGENTS_TIMEOUT_SECONDS', subagents.timeoutSeconds, 1),
    },
    workers: { ...workers, lockSeconds: wholeNumber(env, 'BRIDGE_WORKER_LOCK_SECONDS', workers.lockSeconds, 1) },
  };
}
