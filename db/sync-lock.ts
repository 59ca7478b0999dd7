// The lock a running sync of an account holds: a session-level advisory lock on a connection of
// its own (workers/sync/sync-mailbox.ts), so it goes with the process that held it. An account
// that says it is syncing while nobody holds its lock has a sync that stopped (its process died;
// its job waits for its retry): stalled.
import type { Db } from './client.ts'

/** The lock's first key; the second is hashtext(provider id). */
export const SYNC_LOCK = 7_461_013

/** SQL: whether a sync of the account whose id is `idColumn` holds its lock now (pg_locks: classid, objid, objsubid 2 for two int4 keys). */
export const syncLockHeld = (db: Db, idColumn: string) => db`exists (
  select 1 from pg_locks l where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.classid = ${SYNC_LOCK}::int::oid and l.objid = hashtext(${db.unsafe(idColumn)}::text)::oid)`
