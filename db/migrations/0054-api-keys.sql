-- API keys for programs (issue 28): password managers and browser extensions create aliases with
-- them. Only the SHA-256 of the key's secret is stored; `lookup` (the secret's first characters,
-- also shown in the list) finds the candidate rows, and the hashes are compared in constant time.
create table api_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  name varchar(64) not null,
  lookup text not null,
  key_hash bytea not null unique,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index api_keys_lookup_idx on api_keys (lookup);
create index api_keys_user_idx on api_keys (user_id, created_at);

-- How aliases made by apps are made: the domain, the form of the name, the target (null = the
-- account's verified address).
create table app_alias_settings (
  user_id uuid primary key references users (id) on delete cascade,
  domain text,
  name_form text not null default 'words' check (name_form in ('words', 'characters')),
  forward_to text,
  updated_at timestamptz not null default now()
);

-- Which app made an alias, and for which website (the `hostname` SimpleLogin's clients send).
alter table aliases add column made_by text check (made_by in ('api', 'simplelogin', 'addy'));
alter table aliases add column hostname varchar(253);
create index aliases_user_hostname_idx on aliases (user_id, hostname, created_at desc) where hostname is not null;
