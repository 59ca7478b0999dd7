// Stops a sync half-way for a test: the insert of a message above a UID waits on an advisory lock
// the test holds, so what came before is committed and the account shows its progress.
import type { Sql } from '../../db/client.ts'

const HOLD = 4_246_013 // the advisory lock's key

export interface MailInsertHold {
  /** Lets the waiting inserts go on and removes the trigger. */
  release(): Promise<void>
}

export async function holdMailInsertsAbove(sql: Sql, uid: number): Promise<MailInsertHold> {
  await sql.unsafe(`
    create function test_hold_insert() returns trigger language plpgsql as $$
    begin if new.uid > ${Math.trunc(uid)} then perform pg_advisory_xact_lock_shared(${HOLD}); end if; return new; end $$;
    create trigger test_hold_insert before insert on received_emails for each row execute function test_hold_insert();`)
  const holder = await sql.reserve()
  await holder`select pg_advisory_lock(${HOLD})`
  return {
    async release() {
      await holder`select pg_advisory_unlock(${HOLD})`
      holder.release()
      await sql.unsafe('drop trigger if exists test_hold_insert on received_emails; drop function if exists test_hold_insert()')
    },
  }
}
