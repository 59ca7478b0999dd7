// The real `web` process (node api/server.ts) on a free port, as a browser test's server.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { freePort } from './free-port.ts'
import { TEST_SECRET_KEY } from './test-app.ts'

export interface WebServer { url: string; stop(): Promise<void> }

/** `host`: the name in PUBLIC_URL and the URL (WebAuthn needs a domain such as localhost, not an IP address). */
export async function startWebServer(databaseUrl: string, env: Record<string, string> = {}, host = '127.0.0.1'): Promise<WebServer> {
  const port = await freePort()
  const url = `http://${host}:${port}`
  const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'api', 'server.ts')], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: url, SECRET_KEY: TEST_SECRET_KEY, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 30_000
  while (!(await fetch(`${url}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('web server did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
