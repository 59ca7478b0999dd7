// The service's own mail: queued by db/queue-system-mail.ts (the workers queue it too).
export { noReplyAddress, queueSystemMail, type SystemMail } from '../../db/queue-system-mail.ts'
