// npm run ops -- <command>: operator commands against the configured (or embedded) database, as
// postqueue/postsuper are for Postfix. Exit codes: 0 done, 1 failed, 2 usage.
import { parseArgs } from 'node:util'
import type { PgBoss } from 'pg-boss'
import { createSql } from '../db/client.ts'
import { config } from '../lib/config.ts'
import { setLogLevel } from '../lib/log.ts'
import { createBoss } from '../db/queues.ts'
import { accounts } from './ops/accounts-command.ts'
import type { Command } from './ops/command.ts'
import { health } from './ops/health-command.ts'
import { deadLetters, emailJob, spool } from './ops/mail-commands.ts'
import { CommandFailed, outputs, UsageError } from './ops/ops-context.ts'
import { cancel, flush, job, jobs, queues, requeue } from './ops/queue-commands.ts'
import { withDatabase } from './with-database.ts'

const commands: Record<string, Command> = {
  health, queues, jobs, job, requeue, flush, cancel, 'dead-letters': deadLetters, 'email-job': emailJob, spool, accounts,
}

function overview(): string {
  const lines = ['usage: npm run ops -- <command> [options] [--json]', '', 'commands:']
  for (const [name, c] of Object.entries(commands)) lines.push(`  ${name.padEnd(13)} ${c.summary}`)
  lines.push('  help <command> details of one command', '', 'Every command takes --json. Exit codes: 0 done, 1 failed, 2 usage.')
  return lines.join('\n')
}

function usage(name: string): string {
  const c = commands[name]
  return `${c.summary}\n\nusage: npm run ops -- ${c.usage.split('\n').join('\n       npm run ops -- ').replace(/npm run ops -- {2}/g, '  ')}`
}

function fail(message: string, code: number, help?: string): never {
  process.stderr.write(`ops: ${message}\n${help ? `\n${help}\n` : ''}`)
  process.exit(code)
}

const argv = process.argv.slice(2)
const [name, ...rest] = argv
if (!name || name === '--help' || name === '-h') {
  process.stdout.write(overview() + '\n')
  process.exit(0)
}
if (name === 'help') {
  if (!rest[0]) process.stdout.write(overview() + '\n')
  else if (commands[rest[0]]) process.stdout.write(usage(rest[0]) + '\n')
  else fail(`no command named ${rest[0]}`, 2, overview())
  process.exit(0)
}
const command = commands[name]
if (!command) fail(`no command named ${name}`, 2, overview())
if (rest.includes('--help') || rest.includes('-h')) {
  process.stdout.write(usage(name) + '\n')
  process.exit(0)
}

let parsed: ReturnType<typeof parseArgs>
try {
  parsed = parseArgs({ args: rest, allowPositionals: true, strict: true, options: { json: { type: 'boolean' }, ...command.options } })
} catch (error) {
  fail((error as Error).message, 2, usage(name))
}
const { json, ...values } = parsed.values as Record<string, string | boolean | undefined>
// pg-boss and the database client log through lib/log.ts: keep stdout for the command's output
setLogLevel('error')

try {
  await withDatabase(config(), async (url) => {
    const sql = createSql(url, { max: 2, name: 'veilmail-ops' })
    let boss: PgBoss | undefined
    const ctx = {
      sql,
      async boss() {
        if (!boss) {
          boss = createBoss(url, { max: 1, maintenance: false })
          await boss.start()
        }
        return boss
      },
      ...outputs(Boolean(json)),
    }
    try {
      await command.run(ctx, values, parsed.positionals)
    } finally {
      await boss?.stop({ graceful: false, wait: true } as Parameters<PgBoss['stop']>[0])
      await sql.end({ timeout: 5 })
    }
  })
} catch (error) {
  if (error instanceof UsageError) fail(error.message, 2, usage(name))
  if (error instanceof CommandFailed) fail(error.message, 1)
  fail(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 1)
}
process.exit(0)
