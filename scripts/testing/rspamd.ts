// A private rspamd for a test file (lib/rspamd-server.ts, the one `npm start` runs), in a temporary
// directory, asking the given DNS (the tests' offline stand-in) so its results do not depend on
// this machine's network. Outside CI a missing `rspamd` skips the suites that need it with a line
// naming the package; with CI=true it fails.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { rspamdInstalled, RSPAMD_BINARY, startRspamd, type RspamdServer } from '../../lib/rspamd-server.ts'

/** True when the rspamd suites can run; throws in CI when they cannot. */
export function rspamdAvailable(): boolean {
  if (rspamdInstalled()) return true
  if (process.env.CI === 'true') throw new Error(`${RSPAMD_BINARY} is missing: apt-get install rspamd`)
  console.warn(`skipping spam filter tests: ${RSPAMD_BINARY} not found (Debian package: rspamd)`)
  return false
}

const subjectRule = (name: string, map: string, result: string) =>
  `${name} {\n  type = "header";\n  header = "Subject";\n  regexp = true;\n  map = "\${LOCAL_CONFDIR}/local.d/${map}";\n  ${result};\n  description = "Subject named by the test";\n}\n`
const mapOf = (phrase: string) => `/${phrase.replace(/[^\w ]/g, '')}/i\n`

/**
 * An operator's rules as rspamd reads them from local.d (multimap): a Subject containing `spam`
 * scores 8, past rspamd's `add header` (6) and short of `reject` (15), so such mail is spam to tag;
 * one containing `later` forces the action `soft reject`.
 */
export function subjectRules(phrases: { spam: string; later: string }): Record<string, string> {
  return {
    'multimap.conf': subjectRule('VEILMAIL_TEST_SPAM_SUBJECT', 'spam-subjects.map', 'score = 8.0') + subjectRule('VEILMAIL_TEST_LATER_SUBJECT', 'later-subjects.map', 'action = "soft reject"'),
    'spam-subjects.map': mapOf(phrases.spam),
    'later-subjects.map': mapOf(phrases.later),
  }
}

export async function startTestRspamd(options: { dnsServer: string; localConfig?: Record<string, string> }): Promise<RspamdServer & { close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-rspamd-'))
  // its first start compiles its rules (tens of seconds on a busy machine); later ones reuse nothing, each test file has its own
  const server = await startRspamd({ dir, dnsServers: [options.dnsServer], localConfig: options.localConfig, startTimeoutMs: 120_000 })
  return {
    ...server,
    async close() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
