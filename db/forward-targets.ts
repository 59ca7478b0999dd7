// forward_targets: the e-mail addresses a user forwards to, and whether each has confirmed it
// wants that mail (per user and address, so one confirmation covers every alias of the user).
// Addresses are stored lower-cased, as the pipeline's targets are.
import type { Db } from './client.ts'

export interface ForwardTargetRow {
  email: string
  confirmedAt: Date | null
  /** forwards waiting for the confirmation, or for the re-enable of a target marked for its bounces */
  held: number
  /** hard bounces in a row */
  bounces: number
  /** marked after too many hard bounces in a row (target_bounces) */
  disabledAt: Date | null
  lastCode: number | null
  lastReason: string | null
}

/**
 * Records new targets; the user's own verified account address counts as confirmed at once.
 * Returns the addresses that were new and still need a confirmation mail.
 */
export async function addForwardTargets(db: Db, userId: string, emails: string[]): Promise<string[]> {
  if (emails.length === 0) return []
  const rows = await db<{ email: string; confirmedAt: Date | null }[]>`
    insert into forward_targets (user_id, email, confirmed_at)
    select ${userId}, e, case when exists (
      select 1 from users u where u.id = ${userId} and lower(u.email) = e and u.email_verified_at is not null) then now() end
    from unnest(${emails.map((e) => e.toLowerCase())}::text[]) e
    on conflict do nothing
    returning email, confirmed_at`
  return rows.filter((r) => !r.confirmedAt).map((r) => r.email)
}

/** What a forward reads with the lock of its delivery: whether its target may get the mail, and the owner's key. */
export interface ForwardTargetState {
  /** the alias's owner confirmed the target */
  confirmed: boolean
  /** the owner's default age recipient (to encrypt, or keep an encrypted copy of a forward that fails) */
  key: string | undefined
  /** the owner wants the block link in forwards (issue 30; on unless turned off) */
  blockLink: boolean
  /** hard bounces in a row (target_bounces); a forward that reaches the target clears them */
  bounces: number
  /** marked after too many bounces in a row: forwards are held until re-enabled */
  disabled: boolean
}

/**
 * Whether each delivery's target may get the alias's mail now (the alias's owner confirmed it),
 * and the owner's default key, for a batch of deliveries in one statement, by their ids. Share-locks
 * the targets' rows for the caller's transaction, so a confirmation committing meanwhile waits and
 * then releases what was held. A target marked for its bounces is share-locked the same way, so
 * its re-enable waits for a forward deciding to hold; an unmarked one's bounce row is not locked
 * (forwards to one target would otherwise wait for each other's bounce counts).
 */
export async function getForwardTargetStates(db: Db, deliveryIds: string[]): Promise<Map<string, ForwardTargetState>> {
  if (deliveryIds.length === 0) return new Map()
  const rows = await db<{ id: string; confirmedAt: Date | null; publicKey: string | null; blockLink: boolean | null; bounces: number | null; disabledAt: Date | null }[]>`
    select d.id,
      (select b.consecutive from target_bounces b where b.user_id = a.user_id and b.email = lower(d.target)) as bounces,
      (select b.disabled_at from target_bounces b where b.user_id = a.user_id and b.email = lower(d.target) and b.disabled_at is not null for share) as disabled_at,
      (select f.confirmed_at from forward_targets f where f.user_id = a.user_id and f.email = lower(d.target) for share) as confirmed_at,
      (select k.public_key from encryption_keys k where k.user_id = a.user_id and k.is_default) as public_key,
      (select s.block_link from sender_block_settings s where s.user_id = a.user_id) as block_link
    from deliveries d join aliases a on a.id = d.alias_id
    where d.id = any(${deliveryIds}::uuid[])`
  return new Map(rows.map((r) => [r.id, { confirmed: Boolean(r.confirmedAt), key: r.publicKey ?? undefined, blockLink: r.blockLink ?? true, bounces: r.bounces ?? 0, disabled: Boolean(r.disabledAt) }]))
}

export async function confirmForwardTarget(db: Db, userId: string, email: string): Promise<void> {
  await db`
    insert into forward_targets (user_id, email, confirmed_at) values (${userId}, ${email.toLowerCase()}, now())
    on conflict (user_id, email) do update set confirmed_at = coalesce(forward_targets.confirmed_at, now())`
}

/** The user's targets with how many forwards each holds, for the dashboard. */
export async function listForwardTargets(db: Db, userId: string): Promise<ForwardTargetRow[]> {
  return db<ForwardTargetRow[]>`
    select f.email, f.confirmed_at, (
      select count(*)::int from deliveries d join aliases a on a.id = d.alias_id
      where a.user_id = f.user_id and d.kind = 'email' and d.status = 'held' and d.target = f.email) as held,
      coalesce(b.consecutive, 0) as bounces, b.disabled_at, b.last_code, b.last_reason
    from forward_targets f left join target_bounces b on b.user_id = f.user_id and b.email = f.email
    where f.user_id = ${userId} order by f.created_at, f.email`
}

export async function findForwardTarget(db: Db, userId: string, email: string): Promise<{ confirmedAt: Date | null } | undefined> {
  const [row] = await db<{ confirmedAt: Date | null }[]>`select confirmed_at from forward_targets where user_id = ${userId} and email = ${email.toLowerCase()}`
  return row
}

/** Held forwards of the user to `email` become pending again; returns their ids (to enqueue). */
export async function releaseHeldDeliveries(db: Db, userId: string, email: string): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    update deliveries d set status = 'pending' from aliases a
    where a.id = d.alias_id and a.user_id = ${userId} and d.kind = 'email' and d.status = 'held' and d.target = ${email.toLowerCase()}
    returning d.id`
  return rows.map((r) => r.id)
}

/** Forwards held longer than the hold period: their ids, for housekeeping to fail. */
export async function findExpiredHeldDeliveries(db: Db, holdSeconds: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from deliveries where status = 'held' and created_at < now() - ${`${holdSeconds} seconds`}::interval limit 1000`
  return rows.map((r) => r.id)
}
