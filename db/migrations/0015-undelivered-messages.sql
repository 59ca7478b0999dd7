-- Encrypted forwarding (issue #6): on per alias by default; it takes effect only while the owner
-- has a default age key.
alter table aliases add column encrypt_forwarded boolean not null default true;

-- Forwards to an e-mail target that failed for good (issue #6), kept 30 days. `encrypted` is the
-- message age-encrypted (armored) to the owner's default key when it failed, `recipient` that
-- key: the server cannot read the copy back. Without a key (or over the owner's storage budget)
-- both are null and the row is only a report. `target` is the owner's own mailbox, `reason` the
-- relay's reply or why we gave up; `status` is 'retrying' while a retry job is queued or running.
create table undelivered_messages (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  alias_id uuid not null references aliases (id) on delete cascade,
  target text not null,
  reason text not null,
  encrypted text,
  recipient text,
  size integer not null default 0,
  status text not null default 'kept' check (status in ('kept', 'retrying')),
  retries integer not null default 0,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '30 days'
);
create index undelivered_messages_user_id_idx on undelivered_messages (user_id, created_at desc);
create index undelivered_messages_alias_id_idx on undelivered_messages (alias_id);
create index undelivered_messages_expires_at_idx on undelivered_messages (expires_at);
