// IMAP IDLE for open inboxes (issue 13): the accounts of users who read their mail recently
// (inbox_presence, written by GET /api/emails) get an IDLE connection on INBOX (RFC 2177), and
// new mail, expunges or flag changes the server announces queue a sync at once instead of
// waiting for the schedule. The account's other enabled folders (Sent, Archive…) are followed on
// the same connection: by NOTIFY (RFC 5465) where the server has it, else by polling their STATUS
// every `folderPollSeconds` (one connection per account either way). Bounded: at most SYNC_IDLE_CONNECTIONS per process, most recently
// seen users first, each account held by one process (mailbox_idle_claims). A watch ends when
// its user goes quiet; a dropped or refused connection is re-opened with backoff. Every watch
// runs on its own: a slow or dead server never holds up another, and no IMAP error escapes.
import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { ImapFlow } from 'imapflow'
import { getProviderForSync } from '../../db/email-providers.ts'
import { recentlyActiveProviderIds } from '../../db/inbox-presence.ts'
import { claimIdle, releaseIdleClaims, renewIdleClaims } from '../../db/mailbox-idle-claims.ts'
import { enabledOtherFolders } from '../../db/mailbox-folders.ts'
import { errorFields, log } from '../../lib/log.ts'
import { classifyImapError, closeImap } from '../../lib/imap-connect.ts'
import { folderStatus, notifyFolders } from './imap-notify.ts'
import { loginMailbox } from '../../db/mailbox-login.ts'
import type { SyncDeps } from './sync-mailbox.ts'
import { requestSync } from '../../db/sync-requests.ts'

export interface IdleWatcherOptions {
  /** IDLE connections this process holds at most (SYNC_IDLE_CONNECTIONS) */
  maxConnections: number
  /** a user's accounts are watched this long after their last GET /api/emails (SYNC_IDLE_ACTIVE_SECONDS) */
  activeSeconds: number
  /** how often the watched set is brought up to date */
  tickSeconds?: number
  /** without NOTIFY: how often the other enabled folders' STATUS is compared */
  folderPollSeconds?: number
}

export interface IdleWatcher {
  /** accounts whose connection is in IDLE now, following all their enabled folders */
  idling(): string[]
  /** the enabled folders besides INBOX the account's connection follows now */
  following(providerId: string): string[]
  stop(): Promise<void>
}

/** RFC 2177 §3: a client re-issues IDLE at least every 29 minutes, before the server's timeout. */
const IDLE_RESTART_MS = 25 * 60_000
const BACKOFF_FIRST_MS = 1000
const BACKOFF_MAX_MS = 5 * 60_000
/** a connection that lasted this long resets the backoff */
const STABLE_MS = 60_000
const FOLDER_POLL_SECONDS = 30

export function startIdleWatcher(deps: SyncDeps, options: IdleWatcherOptions): IdleWatcher {
  const tickMs = (options.tickSeconds ?? 5) * 1000
  const folderPollMs = (options.folderPollSeconds ?? FOLDER_POLL_SECONDS) * 1000
  // a claim outlives a few missed ticks, and lapses soon after this process dies
  const leaseSeconds = Math.max(15, Math.ceil((tickMs * 3) / 1000))
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  const watches = new Map<string, Watch>()
  let stopped = false

  const tick = async () => {
    try {
      const wanted = await recentlyActiveProviderIds(deps.sql, options.activeSeconds, options.maxConnections * 4)
      const wantedSet = new Set(wanted)
      const quiet = [...watches.keys()].filter((id) => !wantedSet.has(id))
      for (const id of quiet) watches.get(id)!.stop()
      for (const id of quiet) watches.delete(id)
      await releaseIdleClaims(deps.sql, holder, quiet)
      // a claim that lapsed (this process stalled) and went to another process ends the watch here
      const kept = new Set(await renewIdleClaims(deps.sql, holder, [...watches.keys()], leaseSeconds))
      for (const [id, watch] of watches) {
        if (!kept.has(id)) {
          watch.stop()
          watches.delete(id)
        }
      }
      const candidates = wanted.filter((id) => !watches.has(id))
      for (const id of await claimIdle(deps.sql, holder, candidates, leaseSeconds, options.maxConnections - watches.size)) {
        if (stopped) break
        watches.set(id, new Watch(deps, id, folderPollMs))
      }
      // folders the user turned on or off since the last tick
      for (const [id, paths] of await enabledOtherFolders(deps.sql, [...watches.keys()])) watches.get(id)?.follow(paths)
    } catch (error) {
      log.warn('idle.tick_failed', errorFields(error))
    }
  }

  let running: Promise<void> | undefined = tick()
  void running.finally(() => { running = undefined })
  const timer = setInterval(() => {
    running ??= tick().finally(() => { running = undefined })
  }, tickMs)

  return {
    idling: () => [...watches.values()].filter((w) => w.idling && w.followsAll).map((w) => w.providerId),
    following: (providerId) => watches.get(providerId)?.following() ?? [],
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
      const all = [...watches.values()]
      watches.clear()
      await Promise.all(all.map((w) => w.stop()))
      await releaseIdleClaims(deps.sql, holder, all.map((w) => w.providerId)).catch((error) => log.warn('idle.release_failed', errorFields(error)))
    },
  }
}

/** One account's IDLE connection, re-opened with backoff until stopped. */
class Watch {
  readonly providerId: string
  idling = false
  #deps: SyncDeps
  #folderPollMs: number
  #stopped = false
  #client: ImapFlow | undefined
  #wake: (() => void) | undefined
  #done: Promise<void>
  /** the enabled folders besides INBOX */
  #folders: string[] = []
  /** NOTIFY is set on the connection: every folder is announced, those in #folders followed */
  #notifying = false
  /** without NOTIFY: the folders the STATUS polls cover now */
  #polled = ''
  /** queues a sync of the account (while connected) */
  #changed: (() => void) | undefined

  constructor(deps: SyncDeps, providerId: string, folderPollMs: number) {
    this.#deps = deps
    this.providerId = providerId
    this.#folderPollMs = folderPollMs
    this.#done = this.#run()
  }

  following(): string[] {
    return this.#notifying ? [...this.#folders] : this.#polled ? this.#polled.split('\n') : []
  }

  get followsAll(): boolean {
    return this.#notifying || this.#folders.join('\n') === this.#polled
  }

  /**
   * The enabled folders besides INBOX to follow. Without NOTIFY, until the polls cover them each
   * call (every tick) breaks IDLE so the loop takes them up.
   */
  follow(paths: string[]): void {
    const added = paths.some((p) => !this.#folders.includes(p))
    this.#folders = paths
    // mail that reached a folder before it was followed is fetched by a sync now
    if (added && this.#notifying) this.#changed?.()
    if (!this.followsAll && this.idling) this.#client?.noop().catch(() => {})
  }

  /** Ends the watch: closes the connection and waits for the loop to finish. */
  stop(): Promise<void> {
    this.#stopped = true
    this.#wake?.()
    this.#client?.close()
    return this.#done
  }

  async #run(): Promise<void> {
    let failures = 0
    while (!this.#stopped) {
      const opened = Date.now()
      try {
        await this.#watchOnce()
      } catch (error) {
        const failure = classifyImapError(error, { host: '', port: 0 })
        // the kind only: an IMAP error's text can quote the server or the mail
        if (!this.#stopped) log.warn('idle.failed', { provider: this.providerId, kind: failure.kind })
      } finally {
        this.idling = false
      }
      if (this.#stopped) break
      failures = Date.now() - opened > STABLE_MS ? 1 : failures + 1
      await this.#sleep(Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (failures - 1)))
    }
  }

  async #watchOnce(): Promise<void> {
    const { sql, boss } = this.#deps
    const provider = await getProviderForSync(sql, this.providerId)
    if (!provider) return
    // the same login as a sync: an Outlook account's token is renewed first when it runs out
    const client = await loginMailbox(this.#deps, provider)
    this.#client = client
    try {
      if (this.#stopped) return
      let requesting: Promise<unknown> | undefined
      const changed = () => {
        requesting ??= requestSync(sql, boss, this.providerId)
          .catch((error) => log.warn('idle.sync_request_failed', { provider: this.providerId, ...errorFields(error) }))
          .finally(() => { requesting = undefined })
      }
      // RFC 3501 §7.3.1 EXISTS (new mail), §7.4.1 EXPUNGE / RFC 7162 VANISHED, §7.4.2 FETCH (flags)
      client.on('exists', changed)
      client.on('expunge', changed)
      client.on('flags', changed)
      this.#changed = changed
      await client.mailboxOpen('INBOX', { readOnly: true })
      // mail that came before the watch began (or while the connection was down)
      changed()
      // the other enabled folders: announced by NOTIFY, or (without it) their STATUS at the last poll
      this.#notifying = await notifyFolders(client, () => this.#folders, changed)
      this.#polled = ''
      let polled: Map<string, string> | undefined
      let nextPoll = 0
      while (!this.#stopped && client.usable) {
        const folders = this.#folders
        const notify = this.#notifying
        if (!notify && (folders.join('\n') !== this.#polled || Date.now() >= nextPoll)) {
          const now = new Map<string, string>()
          for (const path of folders) now.set(path, await folderStatus(client, path))
          // a folder whose STATUS moved since the last poll (new mail, an expunge, a flag change), or
          // one followed since then (its mail may have come before)
          if (polled && [...now].some(([path, status]) => polled!.get(path) !== status)) changed()
          polled = now
          this.#polled = folders.join('\n')
          nextPoll = Date.now() + this.#folderPollMs
        }
        this.idling = true
        // breaking IDLE with a NOOP restarts it before the server's timeout, or for the next poll
        const wakeIn = !notify && folders.length ? Math.max(0, Math.min(IDLE_RESTART_MS, nextPoll - Date.now())) : IDLE_RESTART_MS
        const restart = setTimeout(() => { client.noop().catch(() => {}) }, wakeIn)
        try {
          // false: IDLE failed on this connection (the loop would spin): re-opened after a backoff
          if ((await client.idle()) === false && !this.#stopped) throw new Error('IDLE failed')
        } finally {
          this.idling = false
          clearTimeout(restart)
        }
      }
    } finally {
      this.#client = undefined
      this.#changed = undefined
      this.#notifying = false
      await closeImap(client)
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.#wake = done
    })
  }
}
