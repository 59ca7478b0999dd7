import type { ParseArgsConfig } from 'node:util'
import type { OpsContext } from './ops-context.ts'

export type Values = Record<string, string | boolean | undefined>

export interface Command {
  /** one line for `--help` */
  summary: string
  /** the synopsis and details for `help <command>` */
  usage: string
  options?: ParseArgsConfig['options']
  run(ctx: OpsContext, values: Values, positionals: string[]): Promise<void>
}
