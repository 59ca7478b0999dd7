// npm run ops -- <command>: operator commands against the configured (or embedded) database.
import { createSql } from '../db/client.ts'
import { countJobsByQueue } from '../db/queue-stats.ts'
import { config } from '../lib/config.ts'
import { printTable } from './print-table.ts'
import { withDatabase } from './with-database.ts'

type Command = (url: string, args: string[]) => Promise<void>

const commands: Record<string, { help: string; run: Command }> = {
  queues: {
    help: 'every queue with its jobs counted per state',
    async run(url) {
      const sql = createSql(url, { max: 1, name: 'veilmail-ops' })
      try {
        printTable((await countJobsByQueue(sql)).map(({ queue, counts }) => ({ queue, ...counts })))
      } finally {
        await sql.end()
      }
    },
  },
}

const [name, ...args] = process.argv.slice(2)
const command = name ? commands[name] : undefined
if (!command) {
  console.log('usage: npm run ops -- <command>\n')
  for (const [n, c] of Object.entries(commands)) console.log(`  ${n.padEnd(12)} ${c.help}`)
  process.exit(name ? 2 : 0)
}
await withDatabase(config(), (url) => command.run(url, args))
