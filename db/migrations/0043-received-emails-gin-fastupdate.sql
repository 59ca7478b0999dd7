-- Re-threading looks a batch's Message-IDs up in References (reference_ids && ids) on every
-- synced batch. With GIN's fast update, new entries wait in a pending list that every search
-- reads whole until a vacuum merges it: during an initial sync that list is the whole mailbox
-- so far, and each batch's lookup grew with it (10,000 messages: Postgres CPU 7.1-7.7 s before,
-- 3.2-3.3 s after, with the lateral lookups of db/received-emails.ts). Entries go into the
-- index as they are inserted instead.
alter index received_emails_reference_ids_idx set (fastupdate = off);
