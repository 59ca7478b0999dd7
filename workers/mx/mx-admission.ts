// Who may hold an SMTP session at the MX: at most MX_MAX_CLIENTS in all and
// MX_MAX_CONNECTIONS_PER_IP from one client address (421 past either, RFC 5321 §4.2.3). One ledger
// counts them for the whole port: in the process itself, or with MX_PROCESSES > 1 in the primary
// process (workers/mx/mx-cluster.ts), which the MX processes ask over their IPC channel, so the
// caps hold for the port and not once per process.
import type { SMTPServer } from 'smtp-server'

export type Refusal = 'per_ip_cap' | 'total_cap'

export interface Caps { total: number; perIp: number }

export interface Admission {
  /** resolves undefined when the connection may stay */
  admit(id: string, ip: string): Promise<Refusal | undefined>
  /** the connection started closing; a connection never admitted is ignored */
  leave(id: string): void
}

/** The count itself. `owner` is the MX process holding the connection (0 in a single process). */
export class ConnectionLedger {
  private readonly open = new Map<string, { ip: string; owner: number }>()
  private readonly perIp = new Map<string, number>()
  private readonly caps: Caps

  constructor(caps: Caps) {
    this.caps = caps
  }

  get size(): number {
    return this.open.size
  }

  admit(id: string, ip: string, owner = 0): Refusal | undefined {
    if (this.open.has(id)) return undefined
    if (this.open.size >= this.caps.total) return 'total_cap'
    const fromIp = this.perIp.get(ip) ?? 0
    if (fromIp >= this.caps.perIp) return 'per_ip_cap'
    this.open.set(id, { ip, owner })
    this.perIp.set(ip, fromIp + 1)
    return undefined
  }

  leave(id: string): void {
    const entry = this.open.get(id)
    if (!entry) return
    this.open.delete(id)
    const left = (this.perIp.get(entry.ip) ?? 1) - 1
    if (left > 0) this.perIp.set(entry.ip, left)
    else this.perIp.delete(entry.ip)
  }

  /** An MX process died: its connections died with it. */
  leaveAll(owner: number): void {
    for (const [id, entry] of this.open) if (entry.owner === owner) this.leave(id)
  }
}

export function localAdmission(caps: Caps): Admission {
  const ledger = new ConnectionLedger(caps)
  return { admit: async (id, ip) => ledger.admit(id, ip), leave: (id) => ledger.leave(id) }
}

/** The messages between an MX process and the primary (mx-cluster.ts). */
export const ADMIT = 'veilmail:mx-admit'
export const ADMITTED = 'veilmail:mx-admitted'
export const LEAVE = 'veilmail:mx-leave'
export type AdmissionMessage =
  | { type: typeof ADMIT; id: string; ip: string }
  | { type: typeof ADMITTED; id: string; refusal?: Refusal }
  | { type: typeof LEAVE; id: string }

/** An MX process under the primary: every question goes to the primary's ledger. */
export function clusterAdmission(): Admission {
  const send = process.send?.bind(process)
  if (!send) throw new Error('clusterAdmission needs an IPC channel to the primary process')
  const waiting = new Map<string, (refusal: Refusal | undefined) => void>()
  process.on('message', (m: AdmissionMessage) => {
    if (m?.type !== ADMITTED) return
    waiting.get(m.id)?.(m.refusal)
    waiting.delete(m.id)
  })
  return {
    admit: (id, ip) => new Promise((resolve) => {
      waiting.set(id, resolve)
      send({ type: ADMIT, id, ip } satisfies AdmissionMessage)
    }),
    leave: (id) => void send({ type: LEAVE, id } satisfies AdmissionMessage),
  }
}

/**
 * A connection leaves the count the moment smtp-server drops it from its own set: when it starts
 * closing (after QUIT's 221), not when the socket is gone, so a client reconnecting right after
 * QUIT is not refused.
 */
export function leaveOnClose(server: SMTPServer, admission: Admission): void {
  const internals = server as unknown as { connections: Set<{ id: string }> }
  if (!(internals.connections instanceof Set)) throw new Error('smtp-server changed: SMTPServer.connections is no longer a Set (review workers/mx/mx-admission.ts)')
  internals.connections = new (class extends Set<{ id: string }> {
    override delete(connection: { id: string }): boolean {
      const had = super.delete(connection)
      if (had) admission.leave(connection.id)
      return had
    }
  })(internals.connections)
}
