-- SMTP credentials for sending from an alias (spec §3). The password is stored twice, never in
-- clear: sealed with AES-256-GCM (so the owner can reveal it) and as an argon2id verifier (what
-- SMTP AUTH checks).
create table smtp_credentials (
  id uuid primary key default gen_random_uuid(),
  alias_id uuid not null references aliases (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  username text not null unique,
  encrypted_password bytea not null,
  password_verifier text not null,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index smtp_credentials_alias_id_idx on smtp_credentials (alias_id);
create index smtp_credentials_user_id_idx on smtp_credentials (user_id);
