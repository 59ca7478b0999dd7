import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'api/**/*.test.ts', 'db/**/*.test.ts', 'lib/**/*.test.ts', 'scripts/**/*.test.ts', 'workers/**/*.test.ts', 'web/**/*.test.{ts,tsx}'],
    globalSetup: ['scripts/testing/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state (a row, a page's text), never for a time: its default of 1 s
    // was shorter than a busy 2-core machine needs to render a lazily loaded page
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
    env: { LOG_LEVEL: 'warn' },
  },
})
