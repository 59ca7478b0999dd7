// the one helper, in lib/ so that npm start (its private rspamd) finds a port with it too
export { freePort } from '../../lib/free-port.ts'
