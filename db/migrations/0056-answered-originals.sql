-- Replies and forwards written in the inbox (issue 26 item 3): the job remembers the message it
-- answers or forwards, and once the mail is sent that message is marked \Answered or $Forwarded
-- on its IMAP server by the write-back (mailbox-changes). No foreign key: a message the sync or
-- the user removes meanwhile is simply not marked (and its deletes pay no check against email_jobs).
alter table email_jobs
  add column original_email_id uuid,
  add column original_action text check (original_action in ('reply', 'forward'));

alter table received_emails add column is_forwarded boolean not null default false;
