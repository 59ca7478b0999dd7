-- Users (spec §3 User). E-mail is stored trimmed and lower-cased; uniqueness ignores case.

create table users (
  id uuid primary key default gen_random_uuid(),
  email text,
  password_hash text,
  wallet_address text,
  google_id text,
  auth_method text not null default 'wallet' check (auth_method in ('email', 'wallet', 'google')),
  first_name text,
  last_name text,
  profile_image_url text,
  balance numeric(10, 2) not null default 0.00,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on users (lower(email)) where email is not null;
create unique index users_wallet_address_key on users (wallet_address) where wallet_address is not null;
create unique index users_google_id_key on users (google_id) where google_id is not null;
