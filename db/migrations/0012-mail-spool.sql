-- The inbound spool: each accepted message, sealed with AES-256-GCM (SecretBox purpose 'spool',
-- the row id as associated data), kept only until every delivery is done. `meta` holds the
-- sealed envelope and authentication results.
create table spool_messages (
  id uuid primary key,
  raw bytea not null,
  meta bytea not null,
  size integer not null,
  received_at timestamptz not null default now()
);

-- One row per (message, target): e-mail recipient, webhook URL or, for a reply, the reverse
-- alias it was sent to. A job carries only the delivery id. Rows go with their spool message.
create table deliveries (
  id uuid primary key default gen_random_uuid(),
  spool_id uuid not null references spool_messages (id) on delete cascade,
  alias_id uuid references aliases (id) on delete set null,
  kind text not null check (kind in ('email', 'webhook', 'reply')),
  target text,
  reverse_alias_id uuid references reverse_aliases (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index deliveries_spool_id_idx on deliveries (spool_id);
create index deliveries_alias_id_idx on deliveries (alias_id);
