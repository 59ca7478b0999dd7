-- Outgoing mail (spec §3 Email job), from the compose page and the submission server. The
-- message (subject, body, or the raw submitted message) is sealed at rest in `content` and
-- wiped once the job is finished. `status` follows the spec: pending → retrying → sent |
-- failed | cancelled, plus `sending` while a worker holds it.
create table email_jobs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  alias_id uuid references aliases (id) on delete set null,
  source text not null check (source in ('compose', 'smtp')),
  recipient_email text not null,
  content bytea,
  use_encryption boolean not null default false,
  share_my_public_key boolean not null default false,
  status text not null default 'pending' check (status in ('pending', 'sending', 'retrying', 'sent', 'failed', 'cancelled')),
  priority smallint not null default 0 check (priority between 0 and 10),
  max_retries smallint not null default 5,
  current_retries smallint not null default 0,
  scheduled_at timestamptz not null default now(),
  undo_until timestamptz not null default now(),
  processed_at timestamptz,
  cancelled_at timestamptz,
  last_error text,
  error_details text,
  message_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index email_jobs_user_id_idx on email_jobs (user_id, created_at desc);
