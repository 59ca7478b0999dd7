-- Inbox search (issue 26): words, from:, to: and subject: are substrings of what is stored readable
-- (subject, sender, recipients), matched case-insensitively with ILIKE. A trigram index (pg_trgm,
-- a trusted extension: the database owner may create it) over those columns as one text finds the
-- rows that hold every trigram of a term, so a search reads its matches instead of the user's
-- whole list. db/mail-search.ts writes the same expression; the planner uses the index only when
-- the two are identical. Bodies stay sealed: their words are searched on the user's IMAP server.
create extension if not exists pg_trgm;
create index received_emails_search_idx on received_emails using gin (
  (subject || ' ' || from_name || ' ' || from_address || ' ' || to_address || ' ' || cc_addresses || ' ' || bcc_addresses) gin_trgm_ops)
  where not deleted;
