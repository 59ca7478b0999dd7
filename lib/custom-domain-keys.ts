// A custom domain's DKIM key (issue 29): 2048-bit RSA made when the domain is added, the private
// key kept sealed with SECRET_KEY and bound to the domain's row (lib/secret-box.ts), the public
// key published by the user as `<selector>._domainkey.<domain>` TXT.
import { generateKeyPair } from 'node:crypto'
import { promisify } from 'node:util'
import { dkimRecordFor } from './dkim-keys.ts'
import { SecretBox } from './secret-box.ts'

const boxes = new Map<string, SecretBox>()
const box = (secretKey: string) => {
  let b = boxes.get(secretKey)
  if (!b) boxes.set(secretKey, (b = new SecretBox(secretKey, 'custom-domain-dkim')))
  return b
}

export async function generateDomainKey(secretKey: string, domainId: string): Promise<{ sealed: Buffer; dnsRecord: string }> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  return { sealed: box(secretKey).seal(pem, domainId), dnsRecord: dkimRecordFor(pem) }
}

export function openDomainKey(secretKey: string, domainId: string, sealed: Uint8Array): string {
  return box(secretKey).openText(sealed, domainId)
}
