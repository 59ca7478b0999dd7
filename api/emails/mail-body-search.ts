// Words in message bodies, asked of the user's own IMAP servers as Roundcube does: bodies stay
// sealed here and need no index of ours. Each account is searched on its own connection, all at
// once, within one time budget (SEARCH_TIMEOUT_SECONDS); every folder the sync keeps is EXAMINEd
// (read-only, RFC 3501 §6.3.2) and asked `UID SEARCH TEXT <word>` for each word (TEXT: header or
// body, §6.4.4), the UIDs of all words intersected and turned into our row ids. A server is input
// like any other (lib/imap-limits.ts): every command has the sync's byte budgets and the time
// left, and a server that is down, slow, or answers too much is left out and named to the user.
import type { ImapFlow } from 'imapflow'
import type { Sql } from '../../db/client.ts'
import { getProviderForSync } from '../../db/email-providers.ts'
import { idsOfFolderUids, listSearchFolders, type SearchFolder } from '../../db/mail-search.ts'
import { hitRateLimit } from '../../db/rate-limits.ts'
import { loginMailbox } from '../../db/mailbox-login.ts'
import type { Config } from '../../lib/config.ts'
import { classifyImapError, closeImap } from '../../lib/imap-connect.ts'
import { BUDGETS, ImapGuard } from '../../lib/imap-limits.ts'
import { log } from '../../lib/log.ts'

export interface BodySearchDeps {
  sql: Sql
  config: Config
  /** an extra trusted CA for IMAP servers (PEM; tests), besides the system's and NODE_EXTRA_CA_CERTS */
  imapCa?: string
}

/** An account whose bodies were not searched this time, and why, in words for the user. */
export interface UnsearchedAccount { providerId: string; email: string; reason: string }

export interface BodySearchResult { ids: string[]; unsearched: UnsearchedAccount[] }

/** The newest matches of one folder kept (highest UIDs): a server answering a million UIDs costs no more than this. */
export const MAX_FOLDER_HITS = 5000

const TOO_MANY = 'too many searches in a short time; try again in a minute'

/** A NO or BAD answer to UID SEARCH (imapflow resolves false) */
const SEARCH_REFUSED = 'SEARCH_REFUSED'

/** Only the accounts (or the one folder) the list shows are asked. */
export interface BodySearchScope { providerId?: string; folderId?: string }

export async function searchBodies(deps: BodySearchDeps, userId: string, words: string[], scope: BodySearchScope = {}): Promise<BodySearchResult> {
  if (words.length === 0) return { ids: [], unsearched: [] }
  const folders = (await listSearchFolders(deps.sql, userId))
    .filter((f) => (!scope.providerId || f.providerId === scope.providerId) && (!scope.folderId || f.folderId === scope.folderId))
  const accounts = new Map<string, SearchFolder[]>()
  for (const folder of folders) accounts.set(folder.providerId, [...(accounts.get(folder.providerId) ?? []), folder])
  if (accounts.size === 0) return { ids: [], unsearched: [] }
  // each search logs in to every account's server: past the user's limit, the stored matches only
  const rule = deps.config.rateLimits['mail-search-user']
  if (!(await hitRateLimit(deps.sql, 'mail-search-user', userId, rule.limit, rule.seconds, { userId })).allowed) {
    return { ids: [], unsearched: [...accounts.values()].map(([f]) => ({ providerId: f.providerId, email: f.email, reason: TOO_MANY })) }
  }
  const budgetMs = deps.config.search.imapBudgetMs
  const results = await Promise.all([...accounts.values()].map((accountFolders) => searchAccount(deps, userId, accountFolders, words, budgetMs)))
  const ids = new Set<string>()
  const unsearched: UnsearchedAccount[] = []
  for (const r of results) {
    if ('reason' in r) unsearched.push(r)
    else for (const id of r.ids) ids.add(id)
  }
  return { ids: [...ids], unsearched }
}

/** One account's matches, or why it could not be searched; never longer than the budget. */
async function searchAccount(deps: BodySearchDeps, userId: string, folders: SearchFolder[], words: string[], budgetMs: number): Promise<{ ids: string[] } | UnsearchedAccount> {
  const { providerId, email } = folders[0]
  const deadline = Date.now() + budgetMs
  const stop = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const outOfTime = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      stop.abort()
      resolve('timeout')
    }, budgetMs)
  })
  let client: ImapFlow | undefined
  const work = (async () => {
    const provider = await getProviderForSync(deps.sql, providerId)
    if (!provider) return { ids: [] }
    client = await loginMailbox({ sql: deps.sql, config: deps.config, imapCa: deps.imapCa, stopSignal: stop.signal }, provider)
    const guard = new ImapGuard(client, { signal: stop.signal })
    try {
      const ids: string[] = []
      for (const folder of folders) ids.push(...await searchFolder(deps.sql, userId, client, guard, folder, words, deadline))
      return { ids }
    } finally {
      guard.dispose()
    }
  })()
  try {
    const result = await Promise.race([work, outOfTime])
    if (result === 'timeout') {
      work.catch(() => {})
      return { providerId, email, reason: 'its mail server did not answer in time' }
    }
    return result
  } catch (error) {
    if ((error as { code?: string })?.code === SEARCH_REFUSED) return { providerId, email, reason: 'its mail server refused the search' }
    const failure = classifyImapError(error, { host: '', port: 0 })
    // the kind only: no address, host or word of the search is logged
    log.info('mail_search.account_failed', { provider: providerId, kind: failure.kind })
    if (stop.signal.aborted || failure.kind === 'timeout' || failure.kind === 'deadline') return { providerId, email, reason: 'its mail server did not answer in time' }
    if (failure.credentialsRefused) return { providerId, email, reason: 'its mail server refused the sign-in' }
    if (failure.kind === 'too-large') return { providerId, email, reason: 'its mail server sent far more than a search needs' }
    return { providerId, email, reason: 'its mail server could not be reached' }
  } finally {
    clearTimeout(timer)
    stop.abort()
    if (client) await closeImap(client)
  }
}

/** The user's rows of one folder whose message holds every word on the server. */
async function searchFolder(sql: Sql, userId: string, client: ImapFlow, guard: ImapGuard, folder: SearchFolder, words: string[], deadline: number): Promise<string[]> {
  const left = () => Math.max(1, deadline - Date.now())
  const lock = await guard.run('select', { ...BUDGETS.select, ms: left() }, () => client.getMailboxLock(folder.path, { readOnly: true }))
  let hits: number[] | undefined
  try {
    const box = client.mailbox
    // another UIDVALIDITY: the server's UIDs name other messages than ours until the sync has caught up
    if (!box || String(box.uidValidity) !== folder.uidValidity || box.exists === 0) return []
    for (const word of words) {
      const found = await guard.run('search', { ...BUDGETS.search, ms: left() }, () => client.search({ text: word }, { uid: true }))
      if (!Array.isArray(found)) throw Object.assign(new Error('SEARCH refused'), { code: SEARCH_REFUSED })
      hits = hits === undefined ? found : found.filter(((of) => (uid: number) => of.has(uid))(new Set(hits)))
      if (hits.length === 0) break
    }
  } finally {
    lock.release()
  }
  const newest = (hits ?? []).filter((uid) => Number.isSafeInteger(uid) && uid > 0).sort((a, b) => b - a).slice(0, MAX_FOLDER_HITS)
  return idsOfFolderUids(sql, userId, folder.folderId, newest)
}
