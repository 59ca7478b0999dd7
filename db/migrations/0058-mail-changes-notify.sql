-- Live inbox (issue 26 item 1): a statement that stores or removes a user's mail tells the web
-- processes (NOTIFY mail_changes, the user's id), which push it to that user's open inboxes over
-- Server-Sent Events. NOTIFY is sent at commit, once per distinct payload of a transaction.
create function received_emails_notify_new() returns trigger language plpgsql as $$
declare u uuid;
begin
  for u in select distinct user_id from new_rows loop perform pg_notify('mail_changes', u::text); end loop;
  return null;
end $$;

create function received_emails_notify_old() returns trigger language plpgsql as $$
declare u uuid;
begin
  for u in select distinct user_id from old_rows loop perform pg_notify('mail_changes', u::text); end loop;
  return null;
end $$;

create trigger received_emails_notify_insert after insert on received_emails
  referencing new table as new_rows for each statement execute function received_emails_notify_new();
create trigger received_emails_notify_delete after delete on received_emails
  referencing old table as old_rows for each statement execute function received_emails_notify_old();
