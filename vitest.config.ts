import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-server.ts'],
    // Real processes and real HTTP: give them room, but fail a hung test rather than the CI run.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share their worker's loaded modules: importing the support and the sources again for
    // each of 285 files cost two minutes of CPU. Each file starts and ends its own worlds.
    isolate: false,
    // Three on two cores: most files wait on real processes, timers and sockets for much of their
    // time (a core sat idle for a fifth of a run with two, beside a CPU hog), and the third fills it.
    maxWorkers: 3,
  },
});
