-- Aliases (spec §3 Alias). forward_to is a comma-separated list of e-mails and webhook URLs;
-- the literal text 'null' means paused, with the previous targets kept in last_forward_to.
create table aliases (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  alias text not null,
  domain text not null,
  forward_to text not null,
  last_forward_to text,
  active boolean not null default true,
  notes varchar(128),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index aliases_address_key on aliases (lower(alias), domain);
create index aliases_user_id_idx on aliases (user_id, created_at desc);
