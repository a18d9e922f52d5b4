import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:peers`: facetform run by tools built with Go (test/peers/), which `npm test` leaves out
// so that it runs where Go is missing; the tools are installed before the tests, and without Go this fails.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/peers/**/*.test.ts'],
    exclude: configDefaults.exclude,
    globalSetup: [...(base.test?.globalSetup as string[]), 'test/helpers/peer-tools.ts'],
  },
});
