// npm run bench [-- name]: runs one benchmark, or all of them in turn. Each prints a table.
export {}
const benchmarks: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  queue: () => import('./queue.ts'),
}

const names = process.argv.slice(2)
for (const name of names) {
  if (!(name in benchmarks)) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(benchmarks).join(', ')}`)
    process.exit(2)
  }
}
for (const name of names.length ? names : Object.keys(benchmarks)) {
  console.log(`\n== ${name} ==`)
  await (await benchmarks[name]()).run()
}
process.exit(0)
