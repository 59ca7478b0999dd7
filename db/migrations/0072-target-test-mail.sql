-- "Send a test mail" to a forward target (issue 30) is an email job like the service's other mail,
-- signed and sent by the delivery process. `purpose` says what its outcome does beyond the send:
-- 'target-test' lifts the target's bounce mark once the mail is taken. `last_code`: the SMTP code
-- of a permanent refusal, beside its reply in last_error.
alter table email_jobs add column purpose text check (purpose in ('target-test'));
alter table email_jobs add column last_code smallint;
