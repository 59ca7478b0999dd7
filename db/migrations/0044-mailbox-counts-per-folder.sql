-- The counts of migration 0030 kept per folder instead of per account (issue 13: one folder's
-- counts, GET /api/emails/counts?folder={id}, and each folder's in the sidebar read a row instead of
-- counting up to 100,000 messages). An account's counts and the user's are the sums of their
-- folders' rows, a handful per user. Writers are held off while the rows are recomputed, so no
-- change falls between the recount and the new triggers.
lock table received_emails in share mode;

alter table mailbox_counts drop constraint mailbox_counts_pkey;
alter table mailbox_counts add column folder_id uuid references mailbox_folders (id) on delete cascade;
delete from mailbox_counts;
insert into mailbox_counts (folder_id, provider_id, user_id, total, unread, starred, bytes)
  select folder_id, provider_id, user_id, count(*), count(*) filter (where not is_read), count(*) filter (where is_starred), sum(size)
  from received_emails where not deleted group by folder_id, provider_id, user_id;
alter table mailbox_counts alter column folder_id set not null, add primary key (folder_id);

-- `delta`: one element per folder whose counts a statement changed (the triggers below add each
-- folder's rows up first, so a batch of 1,000 inserted messages is one element, not 1,000).
-- A folder whose account or user is being deleted gets no row: its cascade has removed or is
-- removing it (and a new row would fail their foreign keys).
-- Rows are taken in folder order, so two statements that touch the same folders cannot deadlock here.
create or replace function mailbox_counts_add(delta jsonb) returns void language sql as $$
  insert into mailbox_counts as m (folder_id, provider_id, user_id, total, unread, starred, bytes)
  select d.folder_id, d.provider_id, d.user_id, d.n, d.unread, d.starred, d.bytes
  from jsonb_to_recordset(delta) as d(folder_id uuid, provider_id uuid, user_id uuid, n int, unread int, starred int, bytes bigint)
  where exists (select 1 from mailbox_folders f join email_providers p on p.id = f.provider_id join users u on u.id = p.user_id where f.id = d.folder_id)
  order by d.folder_id
  on conflict (folder_id) do update set total = m.total + excluded.total, unread = m.unread + excluded.unread,
    starred = m.starred + excluded.starred, bytes = m.bytes + excluded.bytes
$$;

create or replace function received_emails_counts_insert() returns trigger language plpgsql as $$
begin
  perform mailbox_counts_add((select coalesce(jsonb_agg(c), '[]') from (
    select folder_id, provider_id, user_id, count(*) as n, count(*) filter (where not is_read) as unread,
      count(*) filter (where is_starred) as starred, sum(size) as bytes
    from new_rows where not deleted group by folder_id, provider_id, user_id) c));
  return null;
end $$;

create or replace function received_emails_counts_delete() returns trigger language plpgsql as $$
begin
  perform mailbox_counts_add((select coalesce(jsonb_agg(c), '[]') from (
    select folder_id, provider_id, user_id, -count(*) as n, -count(*) filter (where not is_read) as unread,
      -count(*) filter (where is_starred) as starred, -sum(size) as bytes
    from old_rows where not deleted group by folder_id, provider_id, user_id) c));
  return null;
end $$;

-- An update that changes no count (a conversation merged, a write-back mark cleared, a modseq)
-- writes nothing: folders whose sums come to zero are left out.
create or replace function received_emails_counts_update() returns trigger language plpgsql as $$
begin
  perform mailbox_counts_add((select coalesce(jsonb_agg(c), '[]') from (
    select folder_id, provider_id, user_id, sum(n) as n, sum(unread) as unread, sum(starred) as starred, sum(bytes) as bytes
    from (
      select folder_id, provider_id, user_id, 1 as n, (not is_read)::int as unread, is_starred::int as starred, size::bigint as bytes
      from new_rows where not deleted
      union all
      select folder_id, provider_id, user_id, -1, -(not is_read)::int, -(is_starred::int), -size::bigint from old_rows where not deleted) changes
    group by folder_id, provider_id, user_id
    having sum(n) <> 0 or sum(unread) <> 0 or sum(starred) <> 0 or sum(bytes) <> 0) c));
  return null;
end $$;
