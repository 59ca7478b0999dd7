// A CA made for one test run and a server certificate for 127.0.0.1/localhost signed by it
// (openssl, as Debian ships it): the private Dovecot and the hostile IMAP server take the same
// material, so a client that trusts the one CA (the sync worker's `imapCa`) trusts both.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** PEM texts: the server's key and certificate, and the CA that signed the certificate. */
export interface TestCertificates {
  key: string
  cert: string
  ca: string
}

/** Writes ca.pem, ca-key.pem, key.pem and cert.pem into `dir` and returns their PEM texts. */
export async function writeTestCertificates(dir: string): Promise<TestCertificates> {
  const f = (name: string) => path.join(dir, name)
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca-key.pem'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=Veilmail test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'])
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('key.pem'), '-out', f('server.csr'), '-subj', '/CN=localhost'])
  writeFileSync(f('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
  await run('openssl', ['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca-key.pem'), '-CAcreateserial', '-out', f('cert.pem'), '-days', '2', '-extfile', f('san.ext')])
  return { key: readFileSync(f('key.pem'), 'utf8'), cert: readFileSync(f('cert.pem'), 'utf8'), ca: readFileSync(f('ca.pem'), 'utf8') }
}

/** The same material, made in a temporary folder that is removed again. */
export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-certs-'))
  try {
    return await writeTestCertificates(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Writes given material where writeTestCertificates would have put it (Dovecot reads the files). */
export function saveTestCertificates(dir: string, certificates: TestCertificates): void {
  writeFileSync(path.join(dir, 'key.pem'), certificates.key, { mode: 0o600 })
  writeFileSync(path.join(dir, 'cert.pem'), certificates.cert)
  writeFileSync(path.join(dir, 'ca.pem'), certificates.ca)
}
