// Bounces on the dashboard and in Settings (issue 30), in Chromium against the real web process:
// a target stopped for its bounces shows why with Send a test mail / Re-enable (Re-enable through
// the real route lifts it), the daily notice lists alias, target, code and reason until dismissed,
// Send a test mail says "Sending..." until the real delivery worker (started late, so the wait is
// seen) has the relay stand-in's answer: refused with its code and reason, then taken (the stop
// lifted), and the threshold is saved. With no delivery process at all, Send a test mail stops
// polling once the server says the mail is still queued, and says the process may not be running. The bounce rows are seeded as the delivery worker writes
// them (its own tests, workers/delivery/bounces.test.ts, make them through the MX, delivery and relay).
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { onePageSuite } from '../../scripts/testing/browser-suite.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { QUEUED_AFTER_MS } from '../../api/aliases/target-test-mail.ts'
import { cancelEmailJob } from '../../db/email-jobs.ts'
import { startDeliveryWorker } from '../../workers/delivery/delivery-worker.ts'

const run = browserAvailable()
const suffix = crypto.randomUUID().slice(0, 6)
const address = `shop-${suffix}@veilmail.test`
const target = `gone-${suffix}@mailbox.example`
const reason = `550 5.1.1 <${target}>: mailbox unavailable`
let env: MailEnv
let stopWorker: (() => Promise<void>) | undefined
// the queue's delivery worker (in this process) starts only when a test wants it
const suite = onePageSuite('bounces', async () => {
  env = await createMailEnv({ worker: false })
  return {
    db: env.db,
    async close() {
      await stopWorker?.()
      await env.close()
    },
  }
})

describe.skipIf(!run)('bounces on the dashboard', () => {
  it('shows a stopped target with its reason and lifts it on Re-enable; lists the notice until dismissed', async () => {
    const email = `bounces.${suffix}@example.com`
    await suite.register(email)
    await suite.page.getByText('No aliases yet').waitFor()
    expect(await suite.page.getByTestId('bounce-notice').count()).toBe(0)
    const [user] = await suite.db.sql`select id from users where email = ${email}`
    await suite.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${`shop-${suffix}`}, 'veilmail.test', ${target})`
    await suite.db.sql`insert into forward_targets (user_id, email, confirmed_at) values (${user.id}, ${target}, now())`
    await suite.db.sql`insert into target_bounces (user_id, email, consecutive, disabled_at, last_code, last_reason, last_at) values (${user.id}, ${target}, 5, now(), 550, ${reason}, now())`
    await suite.db.sql`insert into bounce_notices (user_id, entries) values (${user.id}, ${suite.db.sql.json([{ alias: address, target, code: 550, reason, count: 5, disabled: true }])})`
    await suite.db.sql`insert into bounce_notices (user_id, entries, created_at) values (${user.id}, ${suite.db.sql.json([{ alias: address, target: 'carol@outside.example', code: 550, reason: '550 5.1.1 no such user', count: 1, disabled: false, reply: true }])}, now() - interval '1 minute')`
    await suite.page.reload()

    const notice = suite.page.getByTestId('bounce-notice')
    await notice.waitFor()
    expect(await notice.innerText()).toContain(`${address} → ${target}: ${reason} (5 times) · forwards to this address are stopped`)
    expect(await notice.innerText()).toContain(`Your reply from ${address} to carol@outside.example: 550 5.1.1 no such user`)
    const stopped = suite.page.getByTestId('target-stopped')
    await stopped.waitFor()
    expect(await stopped.innerText()).toContain(`Stopped after 5 bounces in a row: ${reason}`)
    await suite.page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-bounces-1280.png'), fullPage: true })

    await suite.page.getByRole('button', { name: 'Re-enable' }).click()
    await suite.toast('Forwarding Resumed').waitFor()
    await expect.poll(() => stopped.count()).toBe(0)
    expect((await suite.db.sql`select disabled_at from target_bounces where user_id = ${user.id}`)[0].disabledAt).toBeNull()

    for (const remaining of [1, 0]) {
      await suite.page.getByRole('button', { name: 'Dismiss bounce notice' }).first().click()
      await expect.poll(() => suite.page.getByRole('button', { name: 'Dismiss bounce notice' }).count()).toBe(remaining)
    }
    await expect.poll(() => notice.count()).toBe(0)
    expect((await suite.db.sql`select closed_at from bounce_notices where user_id = ${user.id} and closed_at is null`)).toHaveLength(0)
  })

  it('Send a test mail that no delivery process takes stops polling and says it is still queued', async () => {
    const [user] = await suite.db.sql`select user_id as id from forward_targets where email = ${target}`
    await suite.db.sql`update target_bounces set consecutive = 5, disabled_at = now() where user_id = ${user.id} and email = ${target}`
    await suite.page.reload()
    await suite.page.getByTestId('target-stopped').waitFor()
    await suite.page.getByRole('button', { name: 'Send a test mail' }).click()
    await suite.page.getByRole('button', { name: 'Sending...' }).waitFor()
    const queued = suite.page.getByTestId('toast').filter({ has: suite.page.getByText('Test Mail Still Queued', { exact: true }) })
    await queued.waitFor({ timeout: QUEUED_AFTER_MS + 20_000 })
    expect(await queued.innerText()).toContain(`The test mail to ${target} is still queued: the delivery process may not be running.`)
    // the button is back (Sending... for ever before)
    await suite.page.getByRole('button', { name: 'Send a test mail' }).waitFor()
    await suite.page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-test-mail-queued-1280.png'), fullPage: true })
    const [job] = await suite.db.sql<{ id: string }[]>`select id from email_jobs where user_id = ${user.id} and purpose = 'target-test' and status = 'pending'`
    // the next test starts a delivery process: this one stays out of its way
    expect(await cancelEmailJob(suite.db.sql, user.id, job.id)).toBe(true)
  }, QUEUED_AFTER_MS + 60_000)

  it('Send a test mail says Sending... until the delivery worker has the answer: refused, then taken', async () => {
    const [user] = await suite.db.sql`select user_id as id from forward_targets where email = ${target}`
    await suite.db.sql`update target_bounces set consecutive = 5, disabled_at = now() where user_id = ${user.id} and email = ${target}`
    env.relay.refuse.set(target, 550)
    await suite.page.reload()
    const stopped = suite.page.getByTestId('target-stopped')
    await stopped.waitFor()

    await suite.page.getByRole('button', { name: 'Send a test mail' }).click()
    const sending = suite.page.getByRole('button', { name: 'Sending...' })
    await sending.waitFor()
    expect(await sending.isDisabled()).toBe(true)
    expect(await suite.page.getByRole('button', { name: 'Re-enable' }).isDisabled()).toBe(true)
    await suite.page.getByTestId('forward-target').screenshot({ path: path.join(SCREENSHOTS, 'dashboard-test-mail-sending-1280.png') })
    stopWorker = await startDeliveryWorker(env.boss, env.deps, { concurrency: 1, pollSeconds: 0.5 })

    const refused = suite.page.getByTestId('toast').filter({ has: suite.page.getByText('Test Mail Refused', { exact: true }) })
    await refused.waitFor({ timeout: 20_000 })
    expect(await refused.innerText()).toContain(`The test mail was not taken: ${reason}`)
    await suite.page.getByRole('button', { name: 'Send a test mail' }).waitFor()
    expect(await stopped.count()).toBe(1)

    env.relay.refuse.delete(target)
    await suite.page.getByRole('button', { name: 'Send a test mail' }).click()
    const taken = suite.page.getByTestId('toast').filter({ has: suite.page.getByText('Forwarding Resumed', { exact: true }) })
    await taken.waitFor({ timeout: 20_000 })
    expect(await taken.innerText()).toContain(`The test mail was taken for ${target}; forwarding to it is on.`)
    await expect.poll(() => stopped.count()).toBe(0)
    expect(env.relay.messages.filter((m) => m.to.includes(target) && m.raw.toString().includes('Subject: Veilmail test mail'))).toHaveLength(1)
  })

  it('saves the threshold in Settings', async () => {
    await suite.page.goto(`${suite.server.url}/settings`)
    const field = suite.page.getByLabel('Hard bounces in a row that stop a target')
    await field.waitFor()
    expect(await field.inputValue()).toBe('5')
    await field.fill('3')
    await suite.page.getByTestId('bounce-settings-card').getByRole('button', { name: 'Save' }).click()
    await suite.toast('Settings saved').waitFor()
    await suite.page.getByTestId('bounce-settings-card').screenshot({ path: path.join(SCREENSHOTS, 'settings-bounces-1280.png') })
    await suite.page.reload()
    await expect.poll(() => suite.page.getByLabel('Hard bounces in a row that stop a target').inputValue()).toBe('3')
  })
})
