// "Aliases created by apps" (issue 28): how the APIs used by password managers and extensions
// make an alias. Shared by the Settings page and the routes; no Node-only imports.
import * as v from 'valibot'

export const ALIAS_NAME_FORMS = ['words', 'characters'] as const
export type AliasNameForm = (typeof ALIAS_NAME_FORMS)[number]

export const AppAliasSettingsSchema = v.object({
  domain: v.pipe(v.string('Domain is required'), v.trim(), v.toLowerCase(), v.nonEmpty('Domain is required')),
  nameForm: v.picklist(ALIAS_NAME_FORMS, 'Choose random words or random characters'),
  /** null: the account's verified address */
  forwardTo: v.nullable(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.nonEmpty('Choose a target'))),
})
export type AppAliasSettingsInput = v.InferOutput<typeof AppAliasSettingsSchema>

export interface AppAliasSettingsView {
  domain: string
  nameForm: AliasNameForm
  forwardTo: string | null
  /** what can be chosen: the alias domains, and the confirmed targets */
  domains: string[]
  targets: string[]
  /** the account's verified address (the default target), if it has one */
  accountEmail: string | null
}
