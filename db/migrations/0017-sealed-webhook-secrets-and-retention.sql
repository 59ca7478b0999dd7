-- Webhook signing secrets are sealed at rest like every other secret (issue 11): AES-256-GCM
-- under a key derived from SECRET_KEY (lib/secret-box.ts), the alias id as associated data. The
-- database never sees SECRET_KEY, so it cannot seal the existing secrets itself: right after the
-- SQL migrations, scripts/migrate-all.ts seals every remaining plaintext `webhook_secret` into
-- `webhook_secret_sealed` and clears it (reads understand both until then). New secrets are
-- generated and sealed by the application; the plaintext default goes.
alter table aliases add column webhook_secret_sealed bytea;
alter table aliases alter column webhook_secret drop default;
alter table aliases alter column webhook_secret drop not null;

-- Retention (issue 11): finished outgoing mail records are purged after lib/retention-periods.ts's
-- period; housekeeping finds them by when they finished.
create index email_jobs_finished_idx on email_jobs (updated_at) where status in ('sent', 'failed', 'cancelled');
