// One e-mail must never stop an account's sync. Anyone can mail a user's real mailbox: a NUL in a
// subject, a display name or a file name, a subject of kilobytes, a date from the far future. The
// mail around it and all later mail arrive, and a message Postgres still refuses is stored as a
// placeholder that says so, under its UID, and not fetched again. Against a private Dovecot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'
import { UNSTORED_SUBJECT } from './unstored-message.ts'

const run = dovecotAvailable()
const CRLF = '\r\n'
const qp = (s: string) => `=?UTF-8?Q?${s}?=`

const plain = (subject: string, extra = '') =>
  `From: Sender <sender@example.test>${CRLF}To: poison@example.test${CRLF}Subject: ${subject}${CRLF}${extra}Date: Tue, 3 Mar 2026 10:00:00 +0100${CRLF}` +
  `Message-ID: <${Math.random().toString(36).slice(2)}@example.test>${CRLF}${CRLF}text${CRLF}`

const withAttachment = (subject: string, filename: string) => {
  const b = 'poison-boundary'
  return `From: Sender <sender@example.test>${CRLF}To: poison@example.test${CRLF}Subject: ${subject}${CRLF}MIME-Version: 1.0${CRLF}` +
    `Content-Type: multipart/mixed; boundary="${b}"${CRLF}${CRLF}--${b}${CRLF}Content-Type: text/plain${CRLF}${CRLF}see file${CRLF}` +
    `--${b}${CRLF}Content-Type: application/octet-stream${CRLF}Content-Disposition: attachment; filename="${filename}"${CRLF}` +
    `Content-Transfer-Encoding: base64${CRLF}${CRLF}${Buffer.from('file').toString('base64')}${CRLF}--${b}--${CRLF}`
}

describe.skipIf(!run)('a poison message in a real mailbox', () => {
  let env: SyncEnv
  beforeAll(async () => { env = await startSyncEnv() })
  afterAll(async () => { await env?.close() })

  async function subjects(providerId: string) {
    const { body } = await env.user.json(env.user.get(`/api/emails?providerId=${providerId}&limit=200`))
    return body.emails as { id: string; subject: string; fromName: string }[]
  }

  it('a NUL in the subject, the From name or an attachment\'s name, and a subject of kilobytes: every message arrives, cleaned', async () => {
    const password = env.dovecot.addUser('poison@example.test')
    await env.dovecot.append('poison@example.test', [
      { raw: plain('before') },
      { raw: plain(qp('hello=00world')) },
      { raw: plain('name', `From: ${qp('Eve=00')} <eve@example.test>${CRLF}`).replace(/^From: Sender <sender@example.test>\r\n/, '') },
      { raw: withAttachment('file', qp('in=00voice.pdf')) },
      { raw: plain(`=?UTF-8?B?${Buffer.from('長'.repeat(3000)).toString('base64')}?=`, `References: <${'r'.repeat(4000)}@example.test>${CRLF}`) },
      { raw: plain('after') },
    ])
    const { providerId, jobId } = await addImapAccount(env.user, env.dovecot, 'poison@example.test', password)
    expect(await syncJobFinished(env.user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 6 }, error: null })
    const emails = await subjects(providerId)
    expect(emails.map((e) => e.subject).sort()).toEqual(['after', 'before', 'file', 'helloworld', 'name', '長'.repeat(998)].sort())
    expect(emails.find((e) => e.subject === 'name')!.fromName).toBe('Eve')
    const file = emails.find((e) => e.subject === 'file')!
    const detail = (await env.user.json(env.user.get(`/api/emails/${file.id}`))).body
    expect(detail.email.attachments.map((a: { filename: string }) => a.filename)).toEqual(['invoice.pdf'])
    // later mail keeps coming
    await env.dovecot.append('poison@example.test', [{ raw: plain('later') }])
    expect(await syncNow(env.user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 1 } })
  })

  it('a message Postgres still refuses becomes a placeholder under its UID; the others of its batch arrive, and it is not fetched again', async () => {
    const { sql } = env.t.db
    // a value no cleaning knows of yet, refused as Postgres refuses bad text (SQLSTATE 22021)
    await sql.unsafe(`
      create function refuse_poison() returns trigger language plpgsql as $$
      begin
        if new.subject like 'refuse me%' then raise exception 'refused for the test' using errcode = '22021'; end if;
        return new;
      end $$;
      create trigger refuse_poison before insert on received_emails for each row execute function refuse_poison();`)
    try {
      const password = env.dovecot.addUser('refused@example.test')
      const uids = await env.dovecot.append('refused@example.test', [{ raw: plain('one') }, { raw: plain('refuse me') }, { raw: plain('three') }])
      const { providerId, jobId } = await addImapAccount(env.user, env.dovecot, 'refused@example.test', password)
      expect(await syncJobFinished(env.user, providerId, jobId)).toMatchObject({ status: 'done', error: null })
      const emails = await subjects(providerId)
      expect(emails.map((e) => e.subject).sort()).toEqual(['(Message not shown)', 'one', 'three'].sort())
      expect(UNSTORED_SUBJECT).toBe('(Message not shown)')
      const placeholder = emails.find((e) => e.subject === UNSTORED_SUBJECT)!
      const detail = (await env.user.json(env.user.get(`/api/emails/${placeholder.id}`))).body
      expect(detail.email.body).toContain(`UID ${uids[1]}`)
      expect(detail.email.body).toContain('"INBOX"')
      const [row] = await sql<{ uid: number }[]>`select uid::int from received_emails where id = ${placeholder.id}`
      expect(row.uid).toBe(uids[1])
      // the cursor is past it: the next sync fetches nothing again
      expect(await syncNow(env.user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 0 } })
    } finally {
      await sql.unsafe('drop trigger refuse_poison on received_emails; drop function refuse_poison();')
    }
  })
})
