// Debian's `age` command-line tool as an independent peer for our age code. Outside CI a missing
// binary skips the suites that need it with a line naming the package; with CI=true it fails.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

export const AGE = process.env.AGE_PATH ?? '/usr/bin/age'
const AGE_KEYGEN = path.join(path.dirname(AGE), 'age-keygen')
const SCRIPT = '/usr/bin/script'
const run = promisify(execFile)

/** True when the age suites can run; throws in CI when they cannot. */
export function ageAvailable(): boolean {
  if (existsSync(AGE) && existsSync(AGE_KEYGEN) && existsSync(SCRIPT)) return true
  if (process.env.CI === 'true') throw new Error(`${AGE} (or age-keygen, or ${SCRIPT}) is missing: apt-get install age bsdutils`)
  console.warn(`skipping age CLI tests: ${AGE} not found (Debian package: age)`)
  return false
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-age-'))
  try {
    return await work(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** `age-keygen`: a fresh identity file and its recipient. */
export async function ageKeygen(): Promise<{ identityFile: string; privateKey: string; publicKey: string }> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, 'key.txt')
    await run(AGE_KEYGEN, ['-o', file])
    const identityFile = readFileSync(file, 'utf8')
    return { identityFile, privateKey: identityFile.match(/AGE-SECRET-KEY-1\S+/)![0], publicKey: identityFile.match(/public key: (age1\S+)/)![1] }
  })
}

/** `age -e -a -r RECIPIENT`: armored ciphertext. */
export async function ageEncrypt(plaintext: string, recipient: string): Promise<string> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'plain.txt')
    writeFileSync(input, plaintext)
    return (await run(AGE, ['-e', '-a', '-r', recipient, input])).stdout
  })
}

/** `age -d -i IDENTITY_FILE`: the plaintext, or a rejection carrying age's stderr. */
export async function ageDecrypt(armored: string, identityFile: string): Promise<string> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'message.age')
    const identity = path.join(dir, 'identity.txt')
    writeFileSync(input, armored)
    writeFileSync(identity, identityFile, { mode: 0o600 })
    return (await run(AGE, ['-d', '-i', identity, input])).stdout
  })
}

/** Runs `command` under `script` (a pseudo-terminal) with `input` typed into it. */
async function inTerminal(command: string, input: string): Promise<void> {
  const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] })
  let transcript = ''
  child.stdout.on('data', (chunk) => (transcript += chunk))
  child.stdin.end(input)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`${command.split(' ')[0]} exited with ${code}: ${transcript.replace(/\s+/g, ' ').trim()}`)
}

/** `age -p -a`: armored, locked by a passphrase (typed twice at age's prompts). */
export async function ageEncryptWithPassphrase(plaintext: string, passphrase: string): Promise<string> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'plain.txt')
    const output = path.join(dir, 'locked.age')
    writeFileSync(input, plaintext)
    await inTerminal(`${AGE} -p -a -o ${output} ${input}`, `${passphrase}\n${passphrase}\n`)
    return readFileSync(output, 'utf8')
  })
}

/**
 * `age -d` of a passphrase-encrypted file. age reads passphrases only from a terminal, so it runs
 * under `script`, which gives it a pseudo-terminal whose input is our stdin.
 */
export async function ageDecryptWithPassphrase(armored: string, passphrase: string): Promise<string> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'locked.age')
    const output = path.join(dir, 'plain.txt')
    writeFileSync(input, armored)
    await inTerminal(`${AGE} -d -o ${output} ${input}`, `${passphrase}\n`)
    return readFileSync(output, 'utf8')
  })
}
