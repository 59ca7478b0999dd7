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

  // issue 25: every IPv6 form that carries an IPv4 address, in every spelling
  it.each([
    // IPv4-mapped ::ffff:0:0/96: the IPv4 is checked
    '0:0:0:0:0:ffff:127.0.0.1', '0000:0000:0000:0000:0000:FFFF:7F00:0001', '[::ffff:7f00:1]', '::FFFF:A9FE:A9FE', '::ffff:127.0.0.1%eth0',
    // IPv4-translated ::ffff:0:0:0/96 (RFC 2765): the IPv4 is checked
    '::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '0:0:0:0:ffff:0:7f00:1', '0000:0000:0000:0000:FFFF:0000:7F00:0001', '[::ffff:0:7f00:1]',
    '::FFFF:0:A9FE:A9FE', '::ffff:0:10.0.0.1%eth0', '::ffff:0:c0a8:101', '::ffff:0:0:0',
    // IPv4-compatible ::/96 (deprecated): refused whatever it carries
    '::7f00:1', '::127.0.0.1', '::8.8.8.8', '::808:808', '0:0:0:0:0:0:0808:0808',
    // NAT64 well-known prefix 64:ff9b::/96: the IPv4 is checked
    '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '0064:FF9B:0000:0000:0000:0000:0A00:0001', '64:ff9b::c0a8:101', '[64:ff9b::169.254.169.254]',
    // NAT64 local-use 64:ff9b:1::/48 and the rest of 64:ff9b::/32: refused
    '64:ff9b:1::808:808', '64:ff9b:1:7f00:1::', '64:ff9b:0:0:1::808:808', '64:ff9b:808:808::',
    // 6to4 2002::/16: a tunnel, refused whatever it carries
    '2002:7f00:1::', '2002:7f00:0001::1', '2002:c0a8:0101::1', '2002:0808:0808::1', '2002:808:808::808:808', '[2002:A9FE:A9FE::]',
    // Teredo 2001::/32 (server 65.54.227.120; client 192.168.1.1, then 8.8.8.8, XOR 0xffffffff): refused
    '2001:0:4136:e378:8000:63bf:3f57:fefe', '2001:0000:4136:E378:8000:63BF:F7F7:F7F7', '2001::7f00:1',
    // outside global unicast 2000::/3, and documentation inside it
    'fec0::1', 'FE80::1%25eth0', '[fe80::1%eth0]', '5f00::1', '100::1', '3fff::1', '4000::1',
  ])('refuses %s (IPv6 forms)', (address) => {
    expect(isBlockedAddress(address)).toBe(true)
  })

  it.each([
    '8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808',
    '[2606:4700:4700::1111]', '2606:4700:4700:0000:0000:0000:0000:1111', '2A00:1450:4001:80B::200E', '0:0:0:0:0:FFFF:0808:0808',
    '::ffff:0:8.8.8.8', '::ffff:0:808:808', '64:ff9b::8.8.8.8', '0064:FF9B::0808:0808',
  ])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false)
  })
})

describe('guardedPost', () => {
  const post = (url: string, allowPrivate = false, lookup?: (h: string) => Promise<{ address: string; family: 4 | 6 }[]>) =>
    guardedPost(url, { body: '{}', headers: {}, timeoutMs: 2000, allowPrivate, lookup })

  it.each([
    'http://127.0.0.1:PORT/hook', 'http://2130706433:PORT/hook', 'http://0x7f000001:PORT/hook', 'http://0177.0.0.1:PORT/hook',
    'http://127.1:PORT/hook', 'http://[::ffff:127.0.0.1]:PORT/hook', 'http://[::1]:PORT/hook', 'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/latest', 'http://localhost:PORT/hook', 'http://[::ffff:0:7f00:1]:PORT/hook', 'http://[::ffff:0:127.0.0.1]:PORT/hook',
    'http://[64:ff9b::7f00:1]:PORT/hook', 'http://[2002:7f00:1::]:PORT/hook', 'http://[::127.0.0.1]:PORT/hook',
  ])('refuses %s before connecting', async (url) => {
    await expect(post(url.replace('PORT', port))).rejects.toBeInstanceOf(BlockedAddressError)
    expect(receiver.requests).toHaveLength(0)
  })

  it('refuses a host name whose DNS answer holds a private address', async () => {
    const lookup = async () => [{ address: '93.184.216.34', family: 4 as const }, { address: '10.0.0.7', family: 4 as const }]
    await expect(post(`http://rebind.example:${port}/hook`, false, lookup)).rejects.toBeInstanceOf(BlockedAddressError)
  })

  it.each(['::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::'])('refuses a DNS answer of %s before connecting', async (address) => {
    const lookup = async () => [{ address: '2606:4700:4700::1111', family: 6 as const }, { address, family: 6 as const }]
    await expect(post(`http://rebind.example:${port}/hook`, false, lookup)).rejects.toBeInstanceOf(BlockedAddressError)
    expect(receiver.requests).toHaveLength(0)
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
