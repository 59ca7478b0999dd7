// The certificate for STARTTLS (MX, submission) and implicit TLS (port 465): TLS_CERT_FILE and
// TLS_KEY_FILE when set (required in production), else a self-signed certificate generated
// once into DATA_DIR/tls with the openssl command-line tool.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import path from 'node:path'
import type { Config } from './config.ts'

export interface TlsCredentials {
  key: Buffer
  cert: Buffer
}

export class TlsConfigError extends Error {}

/**
 * What our TLS servers (submission 587 STARTTLS and 465, the MX's STARTTLS) negotiate: Mozilla's
 * "intermediate" profile (ssl-config.mozilla.org, guidelines 5.7+): TLS 1.2 only with ECDHE key
 * exchange and an AEAD cipher (no static RSA, RFC 9325 §4.1; no CBC, no SHA-1 MAC), TLS 1.3 with
 * OpenSSL's default suites (names without TLS_ leave them as they are). The client's order is
 * followed, as the profile says: every suite offered here is strong.
 */
export const SERVER_TLS_PROFILE = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: false,
} as const

export function loadTlsCredentials(cfg: Pick<Config, 'tls' | 'dataDir' | 'production' | 'mailDomains' | 'smtpPublicHost'>): TlsCredentials {
  const { certFile, keyFile } = cfg.tls
  if (certFile || keyFile) {
    if (!certFile || !keyFile) throw new TlsConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together')
    try {
      return { cert: readFileSync(certFile), key: readFileSync(keyFile) }
    } catch (error) {
      throw new TlsConfigError(`TLS_CERT_FILE/TLS_KEY_FILE: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
    }
  }
  if (cfg.production) throw new TlsConfigError('TLS_CERT_FILE and TLS_KEY_FILE are required in production')
  return selfSigned(path.join(cfg.dataDir, 'tls'), [cfg.smtpPublicHost, ...cfg.mailDomains.map((d) => `mx.${d}`), 'localhost'])
}

function selfSigned(dir: string, names: string[]): TlsCredentials {
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    // Written under temporary names and renamed, so two processes starting at once never read half a file.
    const suffix = `.${process.pid}.tmp`
    const san = [...new Set(names)].map((n) => `DNS:${n}`).concat('IP:127.0.0.1').join(',')
    try {
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '825',
        '-keyout', keyFile + suffix, '-out', certFile + suffix,
        '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${san}`,
      ], { stdio: 'ignore' })
    } catch {
      throw new TlsConfigError('Could not generate a development certificate (is `openssl` installed?): set TLS_CERT_FILE and TLS_KEY_FILE')
    }
    renameSync(keyFile + suffix, keyFile)
    renameSync(certFile + suffix, certFile)
  }
  return { cert: readFileSync(certFile), key: readFileSync(keyFile) }
}
