-- Spam filtering with rspamd (issue 30). Per alias, what becomes of mail rspamd calls spam
-- (its action `add header` or `rewrite subject`): 'tag' forwards it with X-Spam-Status and
-- X-Spam-Score (every scored forward carries them), 'tag-subject' also puts [SPAM] before its
-- Subject, 'drop' keeps it nowhere and counts it (alias_counters.spam). Mail rspamd rejects is
-- refused in the SMTP session whatever the alias says.
alter table aliases
  add column spam_handling text not null default 'tag' check (spam_handling in ('tag', 'tag-subject', 'drop'));

alter table alias_counters add column spam bigint not null default 0;
