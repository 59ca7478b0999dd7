import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebhookReceiver, type WebhookReceiver } from '../scripts/testing/mail-stand-ins.ts'
import { guardedPost } from './guarded-post.ts'
import { BlockedAddressError, isBlockedAddress } from './ssrf-guard.ts'

let receiver: WebhookReceiver
let port: string
beforeAll(async () => {
  receiver = await startWebhookReceiver()
  port = new URL(receiver.url).port
})
afterAll(async () => {
  await receiver.close()
})

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.0.1',
    '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.5', '198.18.0.1',
    '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'fd00:ec2::254', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true)
  })

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false)
  })
})

describe('guardedPost', () => {
  const post = (url: string, allowPrivate = false, lookup?: (h: string) => Promise<{ address: string; family: 4 | 6 }[]>) =>
    guardedPost(url, { body: '{}', headers: {}, timeoutMs: 2000, allowPrivate, lookup })

  it.each([
    'http://127.0.0.1:PORT/hook', 'http://2130706433:PORT/hook', 'http://0x7f000001:PORT/hook', 'http://0177.0.0.1:PORT/hook',
    'http://127.1:PORT/hook', 'http://[::ffff:127.0.0.1]:PORT/hook', 'http://[::1]:PORT/hook', 'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/latest', 'http://localhost:PORT/hook',
  ])('refuses %s before connecting', async (url) => {
    await expect(post(url.replace('PORT', port))).rejects.toBeInstanceOf(BlockedAddressError)
    expect(receiver.requests).toHaveLength(0)
  })

  it('refuses a host name whose DNS answer holds a private address', async () => {
    const lookup = async () => [{ address: '93.184.216.34', family: 4 as const }, { address: '10.0.0.7', family: 4 as const }]
    await expect(post(`http://rebind.example:${port}/hook`, false, lookup)).rejects.toBeInstanceOf(BlockedAddressError)
  })

  it('connects to the address it checked, keeping the host name, and follows no redirect', async () => {
    const lookup = async () => [{ address: '127.0.0.1', family: 4 as const }]
    receiver.statuses.push(302)
    const { status } = await post(`http://hooks.example:${port}/hook`, true, lookup)
    expect(status).toBe(302)
    expect(receiver.requests).toHaveLength(1)
    expect(receiver.requests[0].headers.host).toBe(`hooks.example:${port}`)
  })

  it('allows private addresses when ALLOW_PRIVATE_NETWORKS is set', async () => {
    expect((await post(`http://127.0.0.1:${port}/hook`, true)).status).toBe(200)
  })
})
