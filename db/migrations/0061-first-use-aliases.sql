-- Aliases made on first use (issue 29): by a custom domain's catch-all, or on the personal
-- subdomain <username>.<first MAIL_DOMAIN>. A deleted one is remembered by deleted_aliases (0010)
-- like any other, so the next message does not make it again.
alter table aliases drop constraint aliases_made_by_check;
alter table aliases add constraint aliases_made_by_check check (made_by in ('api', 'simplelogin', 'addy', 'catch-all', 'subdomain'));
alter table users add column username text;
create unique index users_username_key on users (username);
