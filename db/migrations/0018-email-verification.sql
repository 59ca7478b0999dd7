-- E-mail verification and password reset (issue 11 item 3). An e-mail account is usable once a
-- link mailed to its address was followed. Google accounts were created only with an address
-- Google says is verified, so theirs count as verified.
alter table users add column email_verified_at timestamptz;
update users set email_verified_at = created_at where auth_method = 'google' and email is not null;

-- Single-use links mailed by the service: verify an account address, reset a password, confirm a
-- forward target. Only the SHA-256 of the token is stored; `email` is the address the link was
-- mailed to (the token proves it received mail there).
create table account_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('verify-email', 'reset-password', 'confirm-target')),
  email text not null,
  token_hash bytea not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index account_tokens_user_id_idx on account_tokens (user_id);
create index account_tokens_expires_at_idx on account_tokens (expires_at);

-- Mail the service itself sends (verification, reset, notices, target confirmation) goes through
-- the same outgoing queue, From a no-reply address on the first mail domain, without an alias.
alter table email_jobs drop constraint email_jobs_source_check;
alter table email_jobs add constraint email_jobs_source_check check (source in ('compose', 'smtp', 'system'));
