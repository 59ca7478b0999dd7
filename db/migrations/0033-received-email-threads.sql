-- Re-threading on insert (issue 13): a message that arrives after its replies finds them by the
-- Message-IDs they name, in In-Reply-To or in References.
create index received_emails_in_reply_to_idx on received_emails (user_id, in_reply_to) where in_reply_to is not null;
create index received_emails_reference_ids_idx on received_emails using gin (reference_ids);
