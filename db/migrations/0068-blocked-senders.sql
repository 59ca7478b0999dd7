-- Blocked senders and one-click unsubscribe (issue 30). A contact is a reverse alias (0011): one
-- per (alias, outside address). A blocked one's mail to that alias is refused or dropped by the
-- MX and counted on the contact; each forward from a contact counts and dates its last mail.
alter table reverse_aliases
  add column blocked_at timestamptz,
  add column forwarded bigint not null default 0,
  add column blocked bigint not null default 0,
  add column last_mail_at timestamptz;
-- the MX asks, per alias recipient, whether the alias blocks anyone at all
create index reverse_aliases_blocked on reverse_aliases (alias_id) where blocked_at is not null;


-- Per user: what a mail client's Unsubscribe does, how a blocked sender is answered, and whether
-- forwards carry the block link.
create table sender_block_settings (
  user_id uuid primary key references users (id) on delete cascade,
  unsubscribe_action text not null default 'pause' check (unsubscribe_action in ('pause', 'block')),
  blocked_reply text not null default 'refuse' check (blocked_reply in ('refuse', 'drop')),
  block_link boolean not null default true,
  updated_at timestamptz not null default now()
);

-- Signed link tokens (unsubscribe, block) are single use: the SHA-256 of each one spent, kept until
-- the token would have expired anyway.
create table link_token_uses (
  token_hash bytea primary key,
  expires_at timestamptz not null
);

-- What an unsubscribe or block link did, for the dashboard's notice (with Undo) until dismissed.
create table unsubscribe_events (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  alias_id uuid not null references aliases (id) on delete cascade,
  reverse_alias_id uuid references reverse_aliases (id) on delete cascade,
  action text not null check (action in ('pause', 'block')),
  via text not null check (via in ('one-click', 'link', 'mailto')),
  created_at timestamptz not null default now(),
  closed_at timestamptz
);
create index unsubscribe_events_open on unsubscribe_events (user_id, created_at) where closed_at is null;
