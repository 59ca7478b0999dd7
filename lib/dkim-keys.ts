// DKIM signing keys, one per alias domain (RFC 6376). Production: DKIM_KEYS_DIR holds
// `<domain>.pem` (PKCS#8 or PKCS#1 RSA private key) for every MAIL_DOMAINS entry, published in
// DNS under DKIM_SELECTOR._domainkey.<domain>. Development: generated once into DATA_DIR/dkim,
// with the TXT record to publish written beside each key as `<domain>.txt`.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from './config.ts'

export interface DkimKey {
  domain: string
  selector: string
  privateKey: string
  /** The TXT record value to publish at `<selector>._domainkey.<domain>`. */
  dnsRecord: string
}

export class DkimConfigError extends Error {}

export function dkimRecordFor(privateKeyPem: string): string {
  const der = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' })
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`
}

export function loadDkimKeys(cfg: Pick<Config, 'mailDomains' | 'dataDir' | 'production' | 'dkim'>): Map<string, DkimKey> {
  const keys = new Map<string, DkimKey>()
  const dir = cfg.dkim.keysDir ?? path.join(cfg.dataDir, 'dkim')
  if (cfg.production && !cfg.dkim.keysDir) throw new DkimConfigError('DKIM_KEYS_DIR is required in production')
  for (const domain of cfg.mailDomains) {
    const file = path.join(dir, `${domain}.pem`)
    if (!existsSync(file)) {
      if (cfg.dkim.keysDir) throw new DkimConfigError(`DKIM_KEYS_DIR: no key for ${domain} (expected ${domain}.pem)`)
      generateKey(dir, domain)
    }
    let privateKey: string
    try {
      privateKey = readFileSync(file, 'utf8')
      keys.set(domain, { domain, selector: cfg.dkim.selector, privateKey, dnsRecord: dkimRecordFor(privateKey) })
    } catch {
      throw new DkimConfigError(`DKIM_KEYS_DIR: ${domain}.pem is not a readable RSA private key`)
    }
  }
  return keys
}

function generateKey(dir: string, domain: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  const tmp = path.join(dir, `${domain}.pem.${process.pid}.tmp`)
  writeFileSync(tmp, pem, { mode: 0o600 })
  writeFileSync(path.join(dir, `${domain}.txt`), dkimRecordFor(pem) + '\n')
  renameSync(tmp, path.join(dir, `${domain}.pem`))
}
