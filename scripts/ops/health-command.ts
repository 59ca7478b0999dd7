// `npm run ops -- health`: what /api/health reports, from the same heartbeat table.
import { listProcessHealth } from '../../db/process-heartbeats.ts'
import { HEARTBEAT_STALE_SECONDS, MONITORED_PROCESSES } from '../../db/heartbeat.ts'
import type { Command } from './command.ts'
import { CommandFailed, iso } from './ops-context.ts'

export const health: Command = {
  summary: 'each process (web, mx, delivery, submission, sync) alive or not, from its heartbeat; exit 1 if one is down',
  usage: 'health [--json]',
  async run(ctx) {
    const beats = await listProcessHealth(ctx.sql, MONITORED_PROCESSES, HEARTBEAT_STALE_SECONDS)
    const processes = Object.fromEntries(beats.map((b) => [b.process, { alive: b.alive, instances: b.instances, lastBeatAt: b.lastBeatAt?.toISOString() ?? null }]))
    ctx.result({ db: true, processes })
    ctx.table(beats.map((b) => ({ process: b.process, state: b.alive ? 'alive' : 'DOWN', instances: b.instances, 'last beat': iso(b.lastBeatAt) })))
    const down = beats.filter((b) => !b.alive).map((b) => b.process)
    if (down.length) throw new CommandFailed(`not running: ${down.join(', ')}`)
  },
}
