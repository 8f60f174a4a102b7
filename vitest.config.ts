import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './test/support/slowest-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-server.ts'],
    // Real processes and real HTTP: give them room, but fail a hung test rather than the CI run.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition: its default bound (1 s) failed a test on a loaded machine
    // where the condition came later; a real failure still fails, at this bound.
    expect: { poll: { timeout: 20_000 } },
    pool: 'forks',
    // Files share their worker's loaded modules: importing the support and the sources again for
    // each of 285 files cost two minutes of CPU. Each file starts and ends its own worlds.
    isolate: false,
    // Two cores, but half of many files' time is waiting (a restart, a timeout, a rate limit):
    // more workers overlap those waits, and take more of the CPU from whatever else runs. Beside
    // a CPU hog, two had done 60% of the suite when three had done 82%; see docs/testing.md.
    maxWorkers: 4,
    sequence: { sequencer: SlowestFirst },
  },
});
