-- Fixed-window rate limit records (spec §3 Rate limit record). `key` names what is limited
-- (a user id, an IP address, an account); one row per (action, key).
create table rate_limits (
  id uuid primary key default gen_random_uuid(),
  action_type text not null,
  key text not null,
  user_id uuid references users (id) on delete cascade,
  ip_address text,
  count integer not null default 0,
  window_start timestamptz not null default now(),
  last_action timestamptz not null default now(),
  unique (action_type, key)
);
create index rate_limits_last_action_idx on rate_limits (last_action);
