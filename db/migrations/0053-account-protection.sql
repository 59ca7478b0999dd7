-- Account protection (issue 27): a second factor (TOTP, passkeys), recovery codes, a pending
-- sign-in between the two factors, and sessions a user can see and end.

-- One TOTP secret per account, sealed with SECRET_KEY (lib/secret-box.ts, purpose "totp", the
-- user id as associated data). Pending until a code confirms it. `last_step` is the time step of
-- the last code accepted: a code of that step or an earlier one is refused (RFC 6238 §5.2).
create table user_totp (
  user_id uuid primary key references users (id) on delete cascade,
  secret_sealed bytea not null,
  confirmed_at timestamptz,
  last_step bigint,
  created_at timestamptz not null default now()
);

-- Ten single-use codes per account; only an HMAC of each is kept.
create table recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  code_hash bytea not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, code_hash)
);

-- Between the first factor and the second: the browser holds a random token in a cookie, the
-- database its SHA-256. Five minutes, then gone.
create table pending_sign_ins (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  token_hash bytea not null unique,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index pending_sign_ins_expires_at_idx on pending_sign_ins (expires_at);

-- Passkeys (WebAuthn credentials). The public key and the signature counter are what a sign-in
-- checks; the name is the user's.
create table passkeys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  credential_id text not null unique,
  public_key bytea not null,
  counter bigint not null default 0,
  transports text[] not null default '{}',
  name text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index passkeys_user_id_idx on passkeys (user_id);

-- WebAuthn challenges, single use, bound to the browser by a cookie token (its SHA-256 here).
create table webauthn_challenges (
  id uuid primary key default gen_random_uuid(),
  token_hash bytea not null unique,
  user_id uuid references users (id) on delete cascade,
  purpose text not null check (purpose in ('register', 'sign-in', 'second-factor', 'confirm')),
  challenge text not null,
  expires_at timestamptz not null
);
create index webauthn_challenges_expires_at_idx on webauthn_challenges (expires_at);

-- What a user sees of a session: the browser and system named coarsely from the User-Agent at
-- sign-in ("Firefox", "Linux"). No address, no full User-Agent.
alter table sessions add column browser text not null default 'Unknown browser';
alter table sessions add column os text not null default 'Unknown system';
