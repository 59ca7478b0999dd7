// The dashboard's Undelivered section and the per-alias encryption switch in a real browser
// against the real web process. Failed forwards are seeded in the database the way the delivery
// worker writes them (the worker's own tests make them through the pipeline).
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { onePageSuite } from '../../scripts/testing/browser-suite.ts'
import { createBoss, queues } from '../../db/queues.ts'

const run = browserAvailable()
const suffix = crypto.randomUUID().slice(0, 6)
const aliasName = `shop-${suffix}`
const address = `${aliasName}@veilmail.test`
const suite = onePageSuite('undelivered')

const items = () => suite.page.getByTestId('undelivered-item')
const item = (id: string) => suite.page.locator(`[data-testid="undelivered-item"][data-id="${id}"]`)

describe.skipIf(!run)('undelivered mail on the dashboard', () => {
  let kept: string
  let report: string

  it('lists nothing until a forward fails, then each failure with its alias, target and reason', async () => {
    await suite.register(`undelivered.${suffix}@example.com`)
    await suite.page.getByText('No aliases yet').waitFor()
    expect(await suite.page.getByTestId('undelivered-card').count()).toBe(0)

    const [user] = await suite.db.sql`select id from users where email = ${`undelivered.${suffix}@example.com`}`
    const [alias] = await suite.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${aliasName}, 'veilmail.test', 'me@mailbox.example') returning id`
    const rows = await suite.db.sql`
      insert into undelivered_messages (user_id, alias_id, target, reason, encrypted, recipient, created_at) values
        (${user.id}, ${alias.id}, 'me@mailbox.example', '552 5.2.2 Mailbox full', '-----BEGIN AGE ENCRYPTED FILE-----', 'age1x', now() - interval '1 hour'),
        (${user.id}, ${alias.id}, 'old@mailbox.example', '550 5.1.1 No such user', null, null, now())
      returning id`
    ;[kept, report] = rows.map((r) => r.id as string)
    await suite.page.reload()
    await suite.page.getByRole('heading', { name: 'Undelivered' }).waitFor()
    await expect.poll(() => items().count()).toBe(2)
    expect(await items().first().getAttribute('data-id')).toBe(report) // newest first
    expect(await item(kept).innerText()).toMatch(new RegExp(`${address}[\\s\\S]*me@mailbox\\.example[\\s\\S]*552 5\\.2\\.2 Mailbox full[\\s\\S]*encrypted copy kept until`))
    expect(await item(report).innerText()).toContain('no copy kept')
    expect(await item(report).getByRole('button', { name: 'Retry' }).count()).toBe(0)
    await suite.page.getByTestId('undelivered-card').screenshot({ path: path.join(SCREENSHOTS, 'dashboard-undelivered-1280.png') })
  })

  it('queues a retry of the kept copy', async () => {
    await item(kept).getByRole('button', { name: 'Retry' }).click()
    await suite.toast('Sending Again').waitFor()
    await item(kept).getByRole('button', { name: 'Sending...' }).waitFor()
    expect((await suite.db.sql`select status from undelivered_messages where id = ${kept}`)[0].status).toBe('retrying')
  })

  it('deletes an entry after confirming', async () => {
    await item(report).getByRole('button', { name: `Delete undelivered message to ${address}` }).click()
    await suite.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await suite.toast('Message Deleted').waitFor()
    await expect.poll(() => items().count()).toBe(1)
    expect(await suite.db.sql`select id from undelivered_messages where id = ${report}`).toHaveLength(0)
  })

  it('switches encryption of forwarded mail for the alias in its details', async () => {
    await suite.page.locator(`[data-testid="alias-row"][data-alias="${address}"]`).getByRole('button', { name: 'Details' }).click()
    const encrypt = suite.page.getByRole('switch', { name: `Encrypt mail forwarded by ${address}` })
    expect(await encrypt.getAttribute('aria-checked')).toBe('true')
    await suite.page.getByTestId('forward-encryption-panel').screenshot({ path: path.join(SCREENSHOTS, 'dashboard-forward-encryption-1280.png') })
    await encrypt.click()
    await suite.toast('Encryption Off').waitFor()
    expect((await suite.db.sql`select encrypt_forwarded from aliases where alias = ${aliasName}`)[0].encryptForwarded).toBe(false)
    await expect.poll(() => encrypt.getAttribute('aria-checked')).toBe('false')
  })

  it('lists failing webhook deliveries per alias with the reason and the next try; Retry now and Drop', async () => {
    const [user] = await suite.db.sql`select id from users where email = ${`undelivered.${suffix}@example.com`}`
    const [hook] = await suite.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${`hooks-${suffix}`}, 'veilmail.test', 'https://hooks.example/in') returning id`
    const spoolId = crypto.randomUUID()
    await suite.db.sql`insert into spool_messages (id, raw, meta, size) values (${spoolId}, ${Buffer.from('sealed')}, ${Buffer.from('sealed')}, 6)`
    // the way the delivery worker leaves them: attempts, last error, and (for one) its job waiting in pg-boss
    const [waiting, refused] = await suite.db.sql<{ id: string }[]>`
      insert into deliveries (spool_id, alias_id, kind, target, attempts, last_error, last_attempt_at) values
        (${spoolId}, ${hook.id}, 'webhook', 'https://hooks.example/in', 2, 'http-503', now() - interval '1 minute'),
        (${spoolId}, ${hook.id}, 'webhook', 'https://down.example/in', 1, 'ECONNREFUSED', now() - interval '2 minutes')
      returning id`
    const boss = createBoss(suite.db.url, { max: 1, maintenance: false })
    await boss.start()
    const jobId = await boss.send(queues.forwardWebhook.name, { deliveryId: waiting.id }, { startAfter: 3600 })
    await boss.stop({ graceful: false })
    await suite.db.sql`update pgboss.job set state = 'retry', start_after = now() + interval '1 hour' where id = ${jobId}`

    await suite.page.reload()
    const failures = suite.page.getByTestId('webhook-failure')
    await failures.first().waitFor()
    await expect.poll(() => failures.count()).toBe(2)
    const first = suite.page.locator(`[data-testid="webhook-failure"][data-id="${waiting.id}"]`)
    const second = suite.page.locator(`[data-testid="webhook-failure"][data-id="${refused.id}"]`)
    expect(await first.innerText()).toMatch(new RegExp(`hooks-${suffix}@veilmail\\.test[\\s\\S]*https://hooks\\.example/in[\\s\\S]*HTTP 503[\\s\\S]*Last tried[\\s\\S]*2 attempts · next try`))
    expect(await second.getByTestId('webhook-failure-reason').innerText()).toBe('connection refused (ECONNREFUSED)')
    expect(await second.getByTestId('webhook-next-retry').innerText()).toBe('trying now')
    await suite.page.getByTestId('undelivered-card').screenshot({ path: path.join(SCREENSHOTS, 'dashboard-webhook-failures-1280.png') })

    await first.getByRole('button', { name: 'Retry now' }).click()
    await suite.toast('Trying Again').waitFor()
    expect((await suite.db.sql`select start_after <= now() as due from pgboss.job where id = ${jobId}`)[0].due).toBe(true)
    await expect.poll(() => first.getByTestId('webhook-next-retry').innerText()).toBe('trying now')

    await second.getByRole('button', { name: `Drop webhook delivery for hooks-${suffix}@veilmail.test` }).click()
    await suite.page.getByRole('dialog').getByRole('button', { name: 'Drop' }).click()
    await suite.toast('Delivery Dropped').waitFor()
    await second.waitFor({ state: 'detached' })
    expect(await failures.count()).toBe(1)
    expect((await suite.db.sql`select status, last_error from deliveries where id = ${refused.id}`)[0]).toEqual({ status: 'failed', lastError: 'dropped-by-owner' })
  })
})
