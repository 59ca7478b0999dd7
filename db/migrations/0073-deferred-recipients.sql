-- A mail to several whose server deferred some recipients (RCPT 4xx) while it took the others is
-- retried to those alone, as the same message (Postfix's per-recipient deferral): `pending_recipients`
-- is the envelope of its next attempt (null: every one of `recipients`, nothing has left yet), and
-- `refused_recipients` the ones refused for good so far, [{address, reply, code}], for its status.
-- Once some have it, `message_id` is set while the row is still `retrying`.
alter table email_jobs add column pending_recipients text[];
alter table email_jobs add column refused_recipients jsonb;
