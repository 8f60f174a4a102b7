import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { SENDERS, update } from './chat-inputs.ts';
import { play } from './playback.ts';
import { judge } from './verdict.ts';

// Random messages, commands, entities, files and presses from people allowed and not, in
// private chats, groups and forum topics, through the fake Bot API to the bridge as a real
// process with the fake CLI. FUZZ_RUNS runs more batches (FUZZ_RUNS=200 for a long run);
// FUZZ_SEED and FUZZ_PATH replay a failure fast-check reported; FUZZ_SHRINK=1 lets fast-check
// shrink a failing batch to a smaller one (slow: each try is a real run); FUZZ_VERBOSE=1 times each run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
const BATCH = { minLength: 150, maxLength: 350 };
/** The most a run may take: its bound (verdict.ts) follows what Telegram's flood limits allow its chats. */
const RUN_TIMEOUT_MS = 180_000;

const ALLOWED = [OWNER, ...Array.from({ length: SENDERS - 1 }, (_, i) => 1001 + i)];

let world: TelegramWorld;
let exited: { code: number | undefined; signal: string | undefined } | undefined;
beforeAll(async () => {
  world = await startTelegramWorld({ BRIDGE_ALLOWED_USERS: ALLOWED.join(','), BRIDGE_LOG_FORMAT: 'json' });
  void world.bridge.exited.then((how) => (exited = how));
});
afterAll(async () => {
  await world?.stop();
});

describe('chat input fuzzing', () => {
  it(
    'every update is answered, refused, or of a documented silent kind, and no reply shows a bug',
    async () => {
      let run = 0;
      let updates = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(update, { ...BATCH, size: 'max' }), async (batch) => {
          run++;
          updates += batch.length;
          const started = Date.now();
          const played = play(world.telegram, ALLOWED, run, batch);
          const problems = await judge(world, played);
          if (exited) problems.unshift(`the bridge exited (${JSON.stringify(exited)}):\n${world.bridge.stderr().slice(-3000)}`);
          if (process.env.FUZZ_VERBOSE) console.info(`run ${run}: ${batch.length} updates in ${Date.now() - started} ms`);
          expect(problems).toEqual([]);
        }),
        {
          numRuns: RUNS,
          ...(SEED !== undefined && { seed: SEED }),
          ...(PATH !== undefined && { path: PATH }),
          endOnFailure: process.env.FUZZ_SHRINK === undefined,
        },
      );
      console.info(`chat input fuzzing: ${updates} updates in ${run} runs`);
    },
    RUNS * RUN_TIMEOUT_MS,
  );
});
