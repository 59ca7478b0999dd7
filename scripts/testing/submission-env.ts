// The submission tests' world: a mail environment (real database, queue; no delivery worker) with
// both submission servers listening on free ports, and senders: a new user with an alias on
// veilmail.test that has SMTP credentials (POST /api/smtp-credentials), through the real API.
import { createSubmissionServers } from '../../workers/submission/submission-server.ts'
import { ApiClient } from './api-client.ts'
import { createMailEnv, type MailEnv } from './mail-env.ts'

export interface SubmissionEnv {
  env: MailEnv
  ports: { starttls: number; tls: number }
  close(): Promise<void>
}

/** `vars`: the environment's variables, e.g. RATE_LIMITS. */
export async function createSubmissionEnv(vars: Record<string, string>): Promise<SubmissionEnv> {
  const env = await createMailEnv({ worker: false, env: vars })
  const servers = createSubmissionServers({ sql: env.db.sql, boss: env.boss, config: env.config })
  const ports = await servers.listen({ starttls: 0, tls: 0 }, '127.0.0.1')
  return {
    env, ports,
    async close() {
      await servers.close()
      await env.close()
    },
  }
}

export interface SmtpSender {
  api: ApiClient
  user: { id: string }
  aliasId: string
  /** the alias: the SMTP user name and the only allowed sender */
  address: string
  password: string
}

export async function smtpSender(env: MailEnv, prefix: string): Promise<SmtpSender> {
  const api = new ApiClient(env.app())
  const { user } = await api.register()
  const name = `${prefix}-${crypto.randomUUID().slice(0, 8)}`
  const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
  const credential = (await api.json(api.post('/api/smtp-credentials', { aliasId: alias.id }))).body.credential
  return { api, user, aliasId: alias.id as string, address: `${name}@veilmail.test`, password: credential.password as string }
}
