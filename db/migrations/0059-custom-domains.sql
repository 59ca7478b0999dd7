-- Custom domains (issue 29). Several accounts may claim a name while it is pending; only the one
-- that shows the ownership record makes it active, and one active owner per name at a time.
-- Removing a domain deletes its row: adding the name again starts pending, with a new token.
create table custom_domains (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  domain text not null,
  verification_token text not null,
  -- the domain's DKIM private key (PKCS#8 PEM) sealed with SECRET_KEY (lib/secret-box.ts, bound to id)
  dkim_private_key_sealed bytea not null,
  dkim_record text not null,
  status text not null default 'pending' check (status in ('pending', 'active')),
  catch_all boolean not null default false,
  default_target text,
  record_states jsonb not null default '{}',
  checked_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index custom_domains_user_domain on custom_domains (user_id, domain);
create unique index custom_domains_active_domain on custom_domains (domain) where status = 'active';
