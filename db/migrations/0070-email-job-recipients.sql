-- Reply all (issue 26): a mail from the web may go to several people at once, To and Cc. Its
-- message carries the To: and Cc: fields; `recipients` is its envelope: every RCPT TO, To first
-- then Cc. recipient_email stays the first of them (the spec's recipientEmail). Null for a mail to
-- recipient_email alone (the submission server's, one job per recipient, and the service's own).
alter table email_jobs add column recipients text[];
alter table email_jobs add constraint email_jobs_recipients_check
  check (recipients is null or (cardinality(recipients) between 1 and 50 and recipients[1] = recipient_email));

-- Reply all answers a message's Reply-To (RFC 5322 §3.6.2) instead of its From when it names one:
-- its addresses as synced, like to_address ('' when it has none, and for mail synced before).
alter table received_emails add column reply_to text not null default '';
