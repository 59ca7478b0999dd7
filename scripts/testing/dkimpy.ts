// dkimpy (Debian python3-dkim), the reference ARC implementation, as an independent signer and
// verifier for the tests: DNS answers come from the TXT records given, not from the network.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const PYTHON = '/usr/bin/python3'

export const dkimpyAvailable = () => existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import dkim'], { stdio: 'ignore' }).status === 0

const VERIFY = `
import dkim, json, sys
records = json.loads(sys.argv[1])
def dns(name, timeout=5):
    value = records.get(name.decode().rstrip('.').lower())
    return value.encode() if value else None
cv, results, comment = dkim.arc_verify(sys.stdin.buffer.read(), dnsfunc=dns)
print(json.dumps({'cv': cv.decode() if cv else None, 'comment': comment, 'instances': [r['instance'] for r in results]}))
`

/** dkimpy's arc_verify: the chain's result (pass, fail, none; null for a chain a seal ended with cv=fail) and why, with `records` as DNS (name → TXT). */
export function dkimpyArcVerify(message: Buffer, records: Record<string, string>): { cv: string | null; comment: string; instances: number[] } {
  const run = spawnSync(PYTHON, ['-c', VERIFY, JSON.stringify(records)], { input: message })
  if (run.status !== 0) throw new Error(`dkimpy arc_verify: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

const SIGN = `
import dkim, json, sys
o = json.loads(sys.argv[1])
message = sys.stdin.buffer.read()
fields = dkim.arc_sign(message, o['selector'].encode(), o['domain'].encode(), o['key'].encode(), o['srvId'].encode(), include_headers=[b'from', b'to', b'subject', b'date', b'message-id'])
sys.stdout.buffer.write(b''.join(fields) + message)
`

/** dkimpy's arc_sign: the message with an ARC set of `domain` on top (it reads the Authentication-Results of `srvId`). */
export function dkimpyArcSign(message: Buffer, o: { selector: string; domain: string; key: string; srvId: string }): Buffer {
  const run = spawnSync(PYTHON, ['-c', SIGN, JSON.stringify(o)], { input: message })
  if (run.status !== 0) throw new Error(`dkimpy arc_sign: ${run.stderr.toString()}`)
  return run.stdout
}

const DKIM_VERIFY = `
import dkim, json, sys
records = json.loads(sys.argv[1])
def dns(name, timeout=5):
    value = records.get(name.decode().rstrip('.').lower())
    return value.encode() if value else None
print(json.dumps(dkim.verify(sys.stdin.buffer.read(), dnsfunc=dns)))
`

/** dkimpy's verify of the message's first DKIM-Signature, with `records` as DNS (name → TXT). */
export function dkimpyVerify(message: Buffer, records: Record<string, string>): boolean {
  const run = spawnSync(PYTHON, ['-c', DKIM_VERIFY, JSON.stringify(records)], { input: message })
  if (run.status !== 0) throw new Error(`dkimpy verify: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString()) === true
}
