-- One folder's list (issue 13: GET /api/emails?folder={id}): a page of 50 newest first, the rows
-- an offset skips, and the folder's counts (total, unread, starred, bytes; also the per-folder
-- counts of GET /api/email-providers) read from this index alone, owner check included.
create index received_emails_folder_list_idx on received_emails (folder_id, received_at desc, id desc)
  include (user_id, is_read, is_starred, size) where not deleted;
