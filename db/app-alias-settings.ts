// app_alias_settings: how aliases made by apps are made, one row per user (none = the defaults).
import type { AliasNameForm } from '../shared/app-alias-schemas.ts'
import type { Db } from './client.ts'

export interface AppAliasSettingsRow { domain: string | null; nameForm: AliasNameForm; forwardTo: string | null }

export async function getAppAliasSettings(db: Db, userId: string): Promise<AppAliasSettingsRow | undefined> {
  const [row] = await db<AppAliasSettingsRow[]>`select domain, name_form, forward_to from app_alias_settings where user_id = ${userId}`
  return row
}

export async function saveAppAliasSettings(db: Db, userId: string, s: AppAliasSettingsRow): Promise<void> {
  await db`
    insert into app_alias_settings (user_id, domain, name_form, forward_to) values (${userId}, ${s.domain}, ${s.nameForm}, ${s.forwardTo})
    on conflict (user_id) do update set domain = excluded.domain, name_form = excluded.name_form, forward_to = excluded.forward_to, updated_at = now()`
}
