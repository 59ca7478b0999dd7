-- The pager's total of a list of conversations (issue 26, speed): how many conversations the
-- user's mail (all accounts), one account's and one folder's hold, kept by statement triggers on
-- received_emails as mailbox_counts keeps the message counts (migration 0044), instead of
-- count(distinct thread_id) over up to 100,000 messages on every /inbox load (163 ms of a sort in
-- EXPLAIN ANALYZE at 100,000 messages, 210-380 ms under load).
-- A scope is a user, an account or a folder, named by its id (uuids: they never collide).
-- conversation_members: how many listed (not deleted) messages of the scope each conversation
-- has; conversation_counts: how many conversations of the scope have at least one. Rows that
-- reach zero are removed, so deleting a folder, an account or a user (whose cascades delete the
-- messages and so run the triggers) leaves nothing behind, and neither table needs a foreign key.
-- The price is on the writes: a sync batch of 10,000 new messages spent 250-530 ms in this trigger
-- (EXPLAIN ANALYZE under load 8-9, 3 scopes x 3,300 conversations), of 2.7-4.2 s for its insert.
-- Migrations run in a transaction (db/migrate.ts), so no CREATE INDEX CONCURRENTLY: writers are
-- held off while the rows are counted (about a second per million messages), so no change falls
-- between the count and the triggers.
lock table received_emails in share mode;

create table conversation_members (
  scope_id uuid not null,
  thread_id uuid not null,
  messages integer not null,
  primary key (scope_id, thread_id)
);

create table conversation_counts (
  scope_id uuid primary key,
  conversations integer not null
);

insert into conversation_members (scope_id, thread_id, messages)
  select s.scope_id, e.thread_id, count(*) from received_emails e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id)
  where not e.deleted group by s.scope_id, e.thread_id;
insert into conversation_counts (scope_id, conversations) select scope_id, count(*) from conversation_members group by scope_id;

-- `delta`: one element per (scope, conversation) whose listed messages a statement changed, `n`
-- the change (never 0). A member's count before is its count after less `n`: the upsert waits for
-- any other transaction holding the row and adds to what that one committed, so a conversation
-- that went from none to some (or back) is seen by exactly one transaction, which alone changes
-- the scope's count. A row removed at zero by another transaction is inserted again by the upsert.
-- Rows are taken in key order (members, then counts), so two statements cannot deadlock here.
-- (No check that the numbers stay >= 0: an upsert's new row is checked before its conflict is
-- found, so a negative `n` for a row that exists would be refused.)
create function conversation_counts_add(delta jsonb) returns void language plpgsql as $$
begin
  with d as (select * from jsonb_to_recordset(delta) as d(scope_id uuid, thread_id uuid, n int)),
  changed as (
    insert into conversation_members as m (scope_id, thread_id, messages)
    select scope_id, thread_id, n from d order by scope_id, thread_id
    on conflict (scope_id, thread_id) do update set messages = m.messages + excluded.messages
    returning m.scope_id, m.thread_id, m.messages),
  scopes as (
    select c.scope_id, sum(case when c.messages = d.n then 1 when c.messages = 0 then -1 else 0 end) as n
    from changed c join d on d.scope_id = c.scope_id and d.thread_id = c.thread_id group by c.scope_id)
  insert into conversation_counts as t (scope_id, conversations)
  select scope_id, n from scopes where n <> 0 order by scope_id
  on conflict (scope_id) do update set conversations = t.conversations + excluded.conversations;
  delete from conversation_members m using jsonb_to_recordset(delta) as d(scope_id uuid, thread_id uuid, n int)
    where d.n < 0 and m.scope_id = d.scope_id and m.thread_id = d.thread_id and m.messages = 0;
  delete from conversation_counts t where t.conversations = 0
    and t.scope_id in (select d.scope_id from jsonb_to_recordset(delta) as d(scope_id uuid, thread_id uuid, n int) where d.n < 0);
end $$;

create function received_emails_conversations_insert() returns trigger language plpgsql as $$
declare delta jsonb;
begin
  select jsonb_agg(c) into delta from (
    select s.scope_id, e.thread_id, count(*) as n from new_rows e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id)
    where not e.deleted group by s.scope_id, e.thread_id) c;
  if delta is not null then perform conversation_counts_add(delta); end if;
  return null;
end $$;

create function received_emails_conversations_delete() returns trigger language plpgsql as $$
declare delta jsonb;
begin
  select jsonb_agg(c) into delta from (
    select s.scope_id, e.thread_id, -count(*) as n from old_rows e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id)
    where not e.deleted group by s.scope_id, e.thread_id) c;
  if delta is not null then perform conversation_counts_add(delta); end if;
  return null;
end $$;

-- An update that moves no message in or out of a conversation (a flag, a write-back mark, a
-- modseq) comes to zero for every element and writes nothing.
create function received_emails_conversations_update() returns trigger language plpgsql as $$
declare delta jsonb;
begin
  select jsonb_agg(c) into delta from (
    select scope_id, thread_id, sum(n) as n from (
      select s.scope_id, e.thread_id, 1 as n from new_rows e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id) where not e.deleted
      union all
      select s.scope_id, e.thread_id, -1 from old_rows e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id) where not e.deleted) changes
    group by scope_id, thread_id having sum(n) <> 0) c;
  if delta is not null then perform conversation_counts_add(delta); end if;
  return null;
end $$;

create trigger received_emails_conversations_insert after insert on received_emails
  referencing new table as new_rows for each statement execute function received_emails_conversations_insert();
create trigger received_emails_conversations_delete after delete on received_emails
  referencing old table as old_rows for each statement execute function received_emails_conversations_delete();
create trigger received_emails_conversations_update after update on received_emails
  referencing old table as old_rows new table as new_rows for each statement execute function received_emails_conversations_update();

-- has:attachment with a term (issue 26, search): the trigram index of migration 0063 finds every
-- message holding the term, and each is then read to check has_attachments ('has:attachment
-- from:bob' at 100,000 messages: 12,000 rows from 5,500 pages read for 908 matches, 50 ms in
-- EXPLAIN ANALYZE). The same expression over the messages with attachments alone (a tenth of
-- them or fewer) finds the matches themselves: 1,092 rows read, 5 ms. db/mail-search.ts writes
-- the expression; its `and has_attachments` lets the planner choose this index.
create index received_emails_search_attachments_idx on received_emails using gin (
  (subject || ' ' || from_name || ' ' || from_address || ' ' || to_address || ' ' || cc_addresses || ' ' || bcc_addresses) gin_trgm_ops)
  where has_attachments and not deleted;
