-- Bounces (issue 30). A forward the target's server refused for good (5xx) is recorded on its
-- undelivered_messages row (per alias and target) with the server's code beside its reason.
alter table undelivered_messages add column code smallint;

-- Per (user, target): hard bounces in a row (a forward that reached the target clears them), and
-- the mark that stops forwards once they reach the owner's threshold. A table beside
-- forward_targets, not columns of it: forwards share-lock the target's row while they send, so a
-- bounce counted there would wait for (and deadlock with) every other forward to the target.
create table target_bounces (
  user_id uuid not null,
  email text not null,
  consecutive integer not null default 0,
  disabled_at timestamptz,
  last_code smallint,
  last_reason text,
  last_at timestamptz,
  primary key (user_id, email),
  foreign key (user_id, email) references forward_targets (user_id, email) on delete cascade
);

-- Per user: the consecutive-bounce threshold (a setting) and the once-a-day notice: when it last
-- went, and since when bounces wait for the next one (a notice job is queued when this is set).
create table bounce_settings (
  user_id uuid primary key references users (id) on delete cascade,
  threshold smallint not null default 5 check (threshold between 1 and 100),
  notified_at timestamptz,
  pending_since timestamptz
);

-- The notice itself, for the dashboard until dismissed (the same text went by mail): what bounced
-- since the previous one, per alias and target with the server's code and reason, no content.
create table bounce_notices (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  entries jsonb not null,
  created_at timestamptz not null default now(),
  closed_at timestamptz
);
create index bounce_notices_user_id_idx on bounce_notices (user_id, created_at desc) where closed_at is null;
