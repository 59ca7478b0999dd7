// `npm run bench [-- name…]`: runs the named benchmarks, or all of them, one after another.
// Each is a module in this folder exporting `run(): Promise<void>` that prints its own table.
export {}

const benches: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  forward: () => import('./forward.ts'),
  // append on IMAP → visible in an open inbox, p95 (a browser test run under vitest)
  'inbox-live': () => import('./inbox-live.ts'),
  mx: () => import('./mx.ts'),
  // only the memory part of mx: 40 concurrent 24 MB messages, peak RSS of the MX and the delivery process
  'mx-memory': () => import('./mx.ts').then((m) => ({ run: () => m.run(['memory']) })),
  queue: () => import('./queue.ts'),
  // inbox search at 100,000 messages (BENCH_SEARCH_MESSAGES): p50/p95 of typical searches through GET /api/emails?q=
  search: () => import('./search.ts'),
  send: () => import('./send.ts'),
  sync: () => import('./sync.ts'),
  'sync-hostile': () => import('./sync-hostile.ts'),
  // N accounts kept fresh by the schedule (BENCH_SYNC_ACCOUNTS, default 2,000 × 50 messages)
  'sync-many': () => import('./sync-many.ts'),
  web: () => import('./web.ts'),
}

// Ctrl-C or a timeout ends the run through process.exit, so each benchmark's cleanup runs.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

const names = process.argv.slice(2)
const unknown = names.filter((n) => !(n in benches))
if (unknown.length) {
  process.stderr.write(`Unknown benchmark: ${unknown.join(', ')} (known: ${Object.keys(benches).join(', ')})\n`)
  process.exit(2)
}
for (const name of names.length ? names : Object.keys(benches)) {
  const bench = await benches[name]()
  await bench.run()
}
process.exit(0)
