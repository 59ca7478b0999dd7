-- Sending as a connected mailbox, and drafts saved to it (issue 26).
--
-- The account's own SMTP server. `smtp_host` null: the preset of its provider (Gmail, Yahoo,
-- Outlook), or, for a custom account, not set up yet (it is not offered as a From until it is).
-- `smtp_security`: 'tls' (implicit TLS, 465) or 'starttls' (587; STARTTLS required, never a
-- plaintext login). `smtp_credentials`: a sealed { user, password } (secret box
-- "smtp-credentials", bound to the account's id) when the SMTP login differs from the IMAP one;
-- null = the IMAP login (its password, or an Outlook account's OAuth2 token over XOAUTH2).
alter table email_providers
  add column smtp_host text,
  add column smtp_port integer check (smtp_port between 1 and 65535),
  add column smtp_security text check (smtp_security in ('tls', 'starttls')),
  add column smtp_credentials bytea;

-- A mail sent as the mailbox itself names its account instead of an alias (one or the other, or
-- neither for the service's own mail). Removing the account fails a job that has not left yet.
alter table email_jobs add column provider_id uuid references email_providers (id) on delete set null;
alter table email_jobs add constraint email_jobs_one_sender check (alias_id is null or provider_id is null);
create index email_jobs_provider_id_idx on email_jobs (provider_id) where provider_id is not null;

-- A draft being written as a mailbox, kept in the account's \Drafts folder (RFC 6154). `content`
-- is the sealed draft ("mailbox-drafts", bound to the draft's id); `version` counts the saves the
-- browser made, `saved_version` the one on the server now, as `server_folder`/`server_uid`
-- (replaced by APPEND of the new copy, then the old one deleted by UID). `discarded`: sent or
-- thrown away; the save-draft job deletes the server's copy, then the row.
create table mailbox_drafts (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  provider_id uuid not null references email_providers (id) on delete cascade,
  content bytea,
  version integer not null default 1,
  saved_version integer not null default 0,
  server_folder text,
  server_uid bigint,
  discarded boolean not null default false,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index mailbox_drafts_provider_id_idx on mailbox_drafts (provider_id);
create index mailbox_drafts_user_id_idx on mailbox_drafts (user_id, updated_at desc);
