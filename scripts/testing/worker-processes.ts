// Real worker processes (node workers/<process>/<process>.ts) for tests that kill one mid-job or
// run several. close() kills every one still running and waits until it has exited.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { TEST_SECRET_KEY } from './test-app.ts'

export interface WorkerProcesses {
  start(): ChildProcess
  close(): Promise<void>
}

/** `entry` is relative to the repository; `env` adds to a quiet test environment with the test secret. */
export function workerProcesses(entry: string, env: Record<string, string>): WorkerProcesses {
  const children: ChildProcess[] = []
  return {
    start() {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', entry)], {
        env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', SECRET_KEY: TEST_SECRET_KEY, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      children.push(child)
      return child
    },
    async close() {
      for (const child of children) {
        if (child.exitCode !== null || child.signalCode !== null) continue
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        await exited
      }
    },
  }
}
