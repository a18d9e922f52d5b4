import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds generate Kubernetes schemas and servers start real processes: seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
