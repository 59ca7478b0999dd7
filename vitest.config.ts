import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'api/**/*.test.ts', 'db/**/*.test.ts', 'lib/**/*.test.ts', 'scripts/**/*.test.ts', 'workers/**/*.test.ts', 'web/**/*.test.{ts,tsx}'],
    globalSetup: ['scripts/testing/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    env: { LOG_LEVEL: 'warn' },
  },
})
