-- A cheap incremental sync (issue 32): a folder's UIDNEXT and MESSAGES as the last complete sync
-- of it saw them (with uid_validity and highest_modseq, already kept). A STATUS that reports the
-- same four values (RFC 3501 §6.3.10, RFC 7162 §3.1.2) means nothing moved: no SELECT is sent.
alter table mailbox_folders add column synced_uid_next bigint, add column synced_messages integer;
