-- Connected mailboxes (spec §3 Email provider, issue #13). `credentials` is the sealed JSON
-- { email, password, host, port, secure } (secret box "imap-credentials", bound to the row id);
-- the server never returns it. `state`: connecting (first login being checked) → syncing ⇄ idle,
-- or error with `last_error`; `auth_failed` stops the schedule until the user fixes the account.
create table email_providers (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  provider text not null check (provider in ('gmail', 'outlook', 'yahoo', 'other')),
  email text not null,
  credentials bytea not null,
  is_active boolean not null default true,
  state text not null default 'connecting' check (state in ('connecting', 'idle', 'syncing', 'error')),
  progress_done integer not null default 0,
  progress_total integer not null default 0,
  last_error text,
  auth_failed boolean not null default false,
  last_sync_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index email_providers_user_id_idx on email_providers (user_id, created_at);
create unique index email_providers_user_email_idx on email_providers (user_id, lower(email));
-- the scheduler's scan: active accounts whose last sync is oldest
create index email_providers_schedule_idx on email_providers (last_sync_at nulls first) where is_active and not auth_failed;

-- One row per folder of a mailbox. `uid_validity`, `last_uid` and `highest_modseq` are the sync
-- cursor (RFC 3501 §2.3.1.1, RFC 7162): a changed UIDVALIDITY drops the folder's mail; new mail is
-- fetched above `last_uid`; flag changes since `highest_modseq` when the server has CONDSTORE.
create table mailbox_folders (
  id uuid primary key default gen_random_uuid(),
  provider_id uuid not null references email_providers (id) on delete cascade,
  path text not null,
  special_use text,
  enabled boolean not null default false,
  uid_validity bigint,
  last_uid bigint not null default 0,
  highest_modseq bigint,
  message_count integer not null default 0,
  unique (provider_id, path)
);

-- Received mail (spec §3 Received email). Addresses and subject are kept readable for the list
-- and the conversation rule; text/HTML bodies and the previews are sealed ("received-mail",
-- bound to the row id). `flags_pending` marks a star/read the user changed here that the
-- mailbox-changes job has not yet written to the server (sync leaves those flags alone);
-- `deleted` hides a message whose deletion is waiting to be written back.
create table received_emails (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  provider_id uuid not null references email_providers (id) on delete cascade,
  folder_id uuid not null references mailbox_folders (id) on delete cascade,
  uid bigint not null,
  message_id text,
  in_reply_to text,
  reference_ids text[] not null default '{}',
  thread_id uuid not null,
  thread_subject text not null default '',
  subject text not null default '',
  from_address text not null default '',
  from_name text not null default '',
  to_address text not null default '',
  cc_addresses text not null default '',
  bcc_addresses text not null default '',
  received_at timestamptz not null,
  size integer not null default 0,
  is_read boolean not null default false,
  is_starred boolean not null default false,
  is_answered boolean not null default false,
  has_attachments boolean not null default false,
  flags_pending boolean not null default false,
  deleted boolean not null default false,
  modseq bigint,
  preview bytea,
  body_text bytea,
  body_html bytea,
  synced_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  unique (folder_id, uid)
);
-- a page of 50 (newest first) for all accounts or one, and the starred/unread categories
-- (the counts read is_read, is_starred and size from the index alone: an index-only scan)
create index received_emails_user_list_idx on received_emails (user_id, received_at desc, id desc) include (is_read, is_starred, size) where not deleted;
create index received_emails_provider_list_idx on received_emails (provider_id, received_at desc, id desc) include (is_read, is_starred, size) where not deleted;
create index received_emails_user_starred_idx on received_emails (user_id, received_at desc, id desc) where is_starred and not deleted;
create index received_emails_user_unread_idx on received_emails (user_id, received_at desc, id desc) where not is_read and not deleted;
-- a conversation, and finding the thread of a reply by Message-ID or subject
create index received_emails_thread_idx on received_emails (user_id, thread_id, received_at);
create index received_emails_message_id_idx on received_emails (user_id, message_id) where message_id is not null;
create index received_emails_thread_subject_idx on received_emails (user_id, thread_subject, received_at desc);
-- write-back: what is waiting for each account
create index received_emails_pending_idx on received_emails (provider_id) where flags_pending or deleted;

-- Attachments of received mail, sealed ("received-mail", bound to the attachment id).
create table received_attachments (
  id uuid primary key default gen_random_uuid(),
  email_id uuid not null references received_emails (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  filename text not null,
  content_type text not null,
  content_id text,
  size integer not null,
  content bytea not null
);
create index received_attachments_email_id_idx on received_attachments (email_id);

-- One row per sync-mailbox job (its id is the job's id): what the UI polls for the Sync button
-- and for a new account's first login and sync. `new_emails_count` is the spec's syncResult.
create table mailbox_sync_jobs (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  provider_id uuid not null references email_providers (id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  new_emails_count integer not null default 0,
  -- messages fetched from the server (a resumed sync fetches only what it had not stored)
  fetched_count integer not null default 0,
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index mailbox_sync_jobs_provider_idx on mailbox_sync_jobs (provider_id, created_at desc);
create index mailbox_sync_jobs_created_at_idx on mailbox_sync_jobs (created_at);

-- The inbox counts per account (total, unread, starred, bytes of the messages not deleted), kept
-- by statement triggers on received_emails, so GET /api/emails/counts reads a row per account
-- instead of counting 100,000 messages.
create table mailbox_counts (
  provider_id uuid primary key references email_providers (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  total integer not null default 0,
  unread integer not null default 0,
  starred integer not null default 0,
  bytes bigint not null default 0
);
create index mailbox_counts_user_id_idx on mailbox_counts (user_id);

-- `delta` is the change of each account's counts as rows: +1 per row added, -1 per row removed.
create function mailbox_counts_add(delta jsonb) returns void language sql as $$
  insert into mailbox_counts as m (provider_id, user_id, total, unread, starred, bytes)
  select d.provider_id, (array_agg(d.user_id))[1], sum(d.n), sum(d.unread), sum(d.starred), sum(d.bytes)
  from jsonb_to_recordset(delta) as d(provider_id uuid, user_id uuid, n int, unread int, starred int, bytes bigint)
  where exists (select 1 from email_providers p where p.id = d.provider_id)
  group by d.provider_id
  on conflict (provider_id) do update set total = m.total + excluded.total, unread = m.unread + excluded.unread,
    starred = m.starred + excluded.starred, bytes = m.bytes + excluded.bytes
$$;

create function received_emails_counts_insert() returns trigger language plpgsql as $$
begin
  perform mailbox_counts_add((select coalesce(jsonb_agg(jsonb_build_object('provider_id', provider_id, 'user_id', user_id, 'n', 1,
    'unread', (not is_read)::int, 'starred', is_starred::int, 'bytes', size)), '[]') from new_rows where not deleted));
  return null;
end $$;

create function received_emails_counts_delete() returns trigger language plpgsql as $$
begin
  perform mailbox_counts_add((select coalesce(jsonb_agg(jsonb_build_object('provider_id', provider_id, 'user_id', user_id, 'n', -1,
    'unread', -(not is_read)::int, 'starred', -(is_starred::int), 'bytes', -size)), '[]') from old_rows where not deleted));
  return null;
end $$;

create function received_emails_counts_update() returns trigger language plpgsql as $$
begin
  perform mailbox_counts_add((select coalesce(jsonb_agg(r), '[]') from (
    select jsonb_build_object('provider_id', provider_id, 'user_id', user_id, 'n', 1, 'unread', (not is_read)::int,
      'starred', is_starred::int, 'bytes', size) as r from new_rows where not deleted
    union all
    select jsonb_build_object('provider_id', provider_id, 'user_id', user_id, 'n', -1, 'unread', -(not is_read)::int,
      'starred', -(is_starred::int), 'bytes', -size) from old_rows where not deleted) changes));
  return null;
end $$;

create trigger received_emails_counts_insert after insert on received_emails
  referencing new table as new_rows for each statement execute function received_emails_counts_insert();
create trigger received_emails_counts_delete after delete on received_emails
  referencing old table as old_rows for each statement execute function received_emails_counts_delete();
create trigger received_emails_counts_update after update on received_emails
  referencing old table as old_rows new table as new_rows for each statement execute function received_emails_counts_update();
