-- IMAP IDLE for open inboxes (issue 13). `inbox_presence`: when each user last read their mail
-- through GET /api/emails (written at most every 30 s per user); the sync process holds IDLE
-- connections for the accounts of users seen within SYNC_IDLE_ACTIVE_SECONDS.
create table inbox_presence (
  user_id uuid primary key references users (id) on delete cascade,
  seen_at timestamptz not null
);
create index inbox_presence_seen_at_idx on inbox_presence (seen_at desc);

-- Which sync process holds the IDLE connection of an account, until when: renewed while held,
-- taken over by another process once it lapses (the holder died), so any number of sync
-- processes hold one connection per account between them.
create table mailbox_idle_claims (
  provider_id uuid primary key references email_providers (id) on delete cascade,
  holder text not null,
  expires_at timestamptz not null
);

-- Folders beyond INBOX (issue 13): unseen messages on the server at the last sync (STATUS UNSEEN),
-- listed with `message_count` for folders that are not synced.
alter table mailbox_folders add column unseen_count integer not null default 0;
