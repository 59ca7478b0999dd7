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
