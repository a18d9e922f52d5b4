import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The author's recipe copies the project and runs suites of it again: `npm run test:recipe`. The
    // tests of test/peers/ need Go to build the tools they run: `npm run test:peers`.
    exclude: [...configDefaults.exclude, 'test/author-recipe.test.ts', 'test/peers/**'],
    // Builds and servers started as processes take seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: on 2 cores, one. Much of a test's time is
    // spent waiting on child processes (servers, kubectl, chromium) and timers: on 2 cores, three
    // workers ran the suite in 102 s, two in 122 s, one in 354 s (2026-11-23).
    maxWorkers: 3,
    // Files of one worker share loaded modules (a third of the suite's time was loading them again
    // per file) and what helpers build once, such as the shipped bundles. Helpers keep no other state.
    isolate: false,
    setupFiles: ['test/helpers/setup.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
