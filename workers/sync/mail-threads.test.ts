// Conversations when mail arrives out of order, against a private Dovecot: a parent synced after
// its replies gathers them (References / In-Reply-To), in one sync or over several, and the
// subject rule applies only to a message that names no other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import type { TestApp } from '../../scripts/testing/test-app.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()

/** A message with the given Message-ID naming `inReplyTo` and `references`. */
function mail(subject: string, id: string, inReplyTo?: string, references: string[] = [], minute = 0) {
  const date = new Date(Date.UTC(2026, 2, 1, 9, minute)).toUTCString()
  return {
    raw: `From: Ann <ann@elsewhere.example>\r\nTo: owner@veilmail.test\r\nSubject: ${subject}\r\nDate: ${date}\r\nMessage-ID: <${id}>\r\n` +
      (inReplyTo ? `In-Reply-To: <${inReplyTo}>\r\n` : '') + (references.length ? `References: ${references.map((r) => `<${r}>`).join(' ')}\r\n` : '') +
      `\r\n${subject}.\r\n`,
  }
}

describe.skipIf(!run)('conversations of mail that arrives out of order', () => {
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv()
    ;({ dovecot, t, user } = env)
  })
  afterAll(() => env?.close())

  /** subject → thread id of the account's stored mail */
  const threads = async (providerId: string) =>
    new Map((await t.db.sql<{ subject: string; threadId: string }[]>`select subject, thread_id from received_emails where provider_id = ${providerId}`).map((r) => [r.subject, r.threadId]))

  /** What the API shows when the message is opened: its conversation, oldest first. */
  const conversation = async (providerId: string, subject: string) => {
    const [row] = await t.db.sql<{ id: string }[]>`select id from received_emails where provider_id = ${providerId} and subject = ${subject}`
    return (await user.json(user.get(`/api/emails/${row.id}`))).body.email.conversationEmails.map((e: any) => e.subject)
  }

  async function account(login: string) {
    const password = dovecot.addUser(login)
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done' })
    return providerId
  }

  it('gathers replies that were synced before their parent, one sync at a time', async () => {
    const login = 'later@threads.test'
    const providerId = await account(login)
    // C answers B, which answers A; C arrives first, then B, then A (whose subject differs from theirs)
    await dovecot.append(login, [mail('Re: Budget (final)', 'c@x', 'b@x', ['a@x', 'b@x'], 3)])
    await syncNow(user, providerId)
    await dovecot.append(login, [mail('Re: Budget', 'b@x', 'a@x', ['a@x'], 2)])
    await syncNow(user, providerId)
    let byThread = await threads(providerId)
    expect(byThread.get('Re: Budget')).toBe(byThread.get('Re: Budget (final)'))
    await dovecot.append(login, [mail('Budget for the spring', 'a@x', undefined, [], 1)])
    await syncNow(user, providerId)
    byThread = await threads(providerId)
    expect(new Set(byThread.values()).size).toBe(1)
    expect(await conversation(providerId, 'Re: Budget (final)')).toEqual(['Budget for the spring', 'Re: Budget', 'Re: Budget (final)'])
  })

  it('gathers them when the whole chain comes in one sync, newest first, and joins two branches their parent links', async () => {
    const login = 'batch@threads.test'
    const providerId = await account(login)
    await dovecot.append(login, [
      mail('Re: Trip (Bob)', 'bob@y', 'root@y', ['root@y'], 3),
      mail('Re: Trip (Cy)', 'cy@y', 'root@y', ['root@y'], 4),
      mail('Re: Re: Trip (Bob)', 'bob2@y', 'bob@y', ['root@y', 'bob@y'], 5),
      mail('Trip', 'root@y', undefined, [], 1),
    ])
    await syncNow(user, providerId)
    const byThread = await threads(providerId)
    expect(new Set(byThread.values()).size).toBe(1)
    expect(await conversation(providerId, 'Trip')).toEqual(['Trip', 'Re: Trip (Bob)', 'Re: Trip (Cy)', 'Re: Re: Trip (Bob)'])
  })

  it('uses the subject rule only for a message that names no other', async () => {
    const login = 'subject@threads.test'
    const providerId = await account(login)
    await dovecot.append(login, [mail('Lunch', 'lunch@z', undefined, [], 1)])
    await syncNow(user, providerId)
    await dovecot.append(login, [
      mail('Re: Lunch', 'headerless@z', undefined, [], 2), // names nothing: the subject rule
      mail('Re: Lunch', 'stranger@z', 'unknown@z', ['unknown@z'], 3), // names a message we do not hold: its own
    ])
    await syncNow(user, providerId)
    const rows = await t.db.sql<{ messageId: string; threadId: string }[]>`select message_id, thread_id from received_emails where provider_id = ${providerId}`
    const thread = (id: string) => rows.find((r) => r.messageId === `<${id}>`)!.threadId
    expect(thread('headerless@z')).toBe(thread('lunch@z'))
    expect(thread('stranger@z')).not.toBe(thread('lunch@z'))
  })
})
