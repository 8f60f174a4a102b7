import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-server.ts'],
    // Real processes and real HTTP: give them room, but fail a hung test rather than the CI run.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only make the real-CLI tests fight each other.
    maxWorkers: 2,
  },
});
