// Spam scoring by rspamd (RSPAMD_URL) over its HTTP protocol (POST /checkv2,
// https://rspamd.com/doc/developers/protocol.html), with the envelope and client facts it reads
// from the request's header fields: IP, HELO, MAIL FROM, each RCPT, our host name. The message is
// streamed to it as DATA arrives (a chunked request body), beside the spool and the authentication
// check, so the MX holds no more of it than before (docs/mail-flow.md, "Streaming"). rspamd's action
// decides (`verdictOf`). rspamd down, slow (RSPAMD_TIMEOUT_MS: waiting to take more of the message,
// or for its answer once all is sent) or answering nonsense: the message is accepted unscored (fail
// open), logged and counted (veilmail_spam_checks_total), never lost or bounced for it.
import http from 'node:http'
import { log } from '../../lib/log.ts'
import type { SpamVerdict } from '../mail/spool-codec.ts'

/** What the MX does with a message, by rspamd's action. */
export type SpamDecision = 'accept' | 'tag' | 'refuse' | 'defer'


export type SpamCheckResult =
  | { verdict: SpamVerdict; decision: SpamDecision }
  /** rspamd was not there (refused, reset), too slow, or answered what is not a verdict */
  | { failed: 'unavailable' | 'timeout' | 'error' }

export interface SpamFilter {
  url: string
  timeoutMs: number
  agent: http.Agent
}

export interface SpamCheckInput {
  remoteAddress: string
  helo: string
  mailFrom: string
  rcptTo: string[]
  mxHostname: string
}

/** The largest answer read: a verdict with every symbol is a few kB. */
const MAX_ANSWER_BYTES = 1024 * 1024

export function createSpamFilter(url: string, timeoutMs: number): SpamFilter {
  return { url, timeoutMs, agent: new http.Agent({ keepAlive: true, maxSockets: 256 }) }
}

/** rspamd's actions (its `actions` settings): reject → 550, soft reject and greylist → 451, add header and rewrite subject → spam. */
export function verdictOf(answer: unknown): { verdict: SpamVerdict; decision: SpamDecision } | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const { action, score, required_score: required } = answer as Record<string, unknown>
  if (typeof action !== 'string' || typeof score !== 'number' || !Number.isFinite(score)) return undefined
  const decision: SpamDecision | undefined = {
    'no action': 'accept', 'add header': 'tag', 'rewrite subject': 'tag', reject: 'refuse', 'soft reject': 'defer', greylist: 'defer',
  }[action] as SpamDecision | undefined
  if (!decision) return undefined
  const requiredScore = typeof required === 'number' && Number.isFinite(required) ? required : 0
  return { verdict: { action, score, requiredScore, spam: decision === 'tag' || decision === 'refuse' }, decision }
}

const RESULT_LABEL: Record<SpamDecision, string> = { accept: 'ham', tag: 'spam', refuse: 'reject', defer: 'soft_reject' }

/** The check of one message; `write` is given the bytes of DATA as they arrive, `end` the verdict. */
export function startSpamCheck(filter: SpamFilter, input: SpamCheckInput, session?: string) {
  let failure: 'unavailable' | 'timeout' | 'error' | undefined
  let stopped = false
  const fail = (reason: 'unavailable' | 'timeout' | 'error') => {
    failure ??= reason
    request.destroy()
  }
  const request = http.request(`${filter.url}/checkv2`, {
    method: 'POST',
    agent: filter.agent,
    headers: {
      'Transfer-Encoding': 'chunked',
      IP: input.remoteAddress,
      Helo: input.helo || 'unknown',
      From: input.mailFrom || '<>',
      Rcpt: input.rcptTo,
      'MTA-Name': input.mxHostname,
    },
  })
  request.on('error', () => fail(failure ? failure : 'unavailable'))
  // settles, never rejects: a failure of rspamd must not become the message's
  const closed = new Promise<undefined>((resolve) => request.once('close', () => resolve(undefined)))
  const answer = new Promise<unknown>((resolve, reject) => {
    request.on('response', (res) => {
      const parts: Buffer[] = []
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        if (bytes > MAX_ANSWER_BYTES) return fail('error')
        parts.push(chunk)
      })
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`rspamd answered ${res.statusCode}`))
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')))
        } catch (error) {
          reject(error)
        }
      })
      res.on('error', reject)
    })
  })
  answer.catch(() => {})

  /** waits for `promise` at most RSPAMD_TIMEOUT_MS, then gives the check up */
  const inTime = async <T>(promise: Promise<T>): Promise<T | undefined> => {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<undefined>((resolve) => { timer = setTimeout(() => { fail('timeout'); resolve(undefined) }, filter.timeoutMs) })
    try {
      return await Promise.race([promise, late, closed])
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    /** the next bytes of the message; waits while rspamd takes what it was sent, never past the timeout */
    async write(data: Buffer): Promise<void> {
      if (failure || stopped) return
      if (!request.write(data)) await inTime(new Promise<void>((resolve) => request.once('drain', resolve)))
    },
    /** the message is complete: rspamd's verdict, or why there is none (then the mail goes on unscored) */
    async end(): Promise<SpamCheckResult> {
      if (!failure) {
        request.end()
        try {
          const parsed = await inTime(answer)
          const verdict = parsed === undefined ? undefined : verdictOf(parsed)
          if (verdict) {
            log.debug('mx.spam_checked', { session, result: RESULT_LABEL[verdict.decision], score: verdict.verdict.score })
            return verdict
          }
          failure ??= parsed === undefined ? 'unavailable' : 'error'
        } catch {
          failure ??= 'error'
        }
      }
      log.warn('mx.spam_check_failed', { session, result: failure, url: filter.url })
      return { failed: failure }
    },
    /** the message will not be delivered (refused, a loop, the client gone): the check is dropped */
    stop() {
      stopped = true
      request.destroy()
    },
  }
}

export type SpamCheck = ReturnType<typeof startSpamCheck>
