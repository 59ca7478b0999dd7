// Alias names nobody may take: they would let an alias impersonate a role, an institution, a
// brand or an urgent notice. Compared case-insensitively and also with `.`, `-`, `_`
// removed, so "pay-pal", "Pay.Pal" and "pay_pal" are all "paypal".
// Shared by the dashboard (instant feedback) and the API (the rule that counts).

const CATEGORIES: Record<string, string> = {
  roles: `admin administrator root sysadmin webmaster hostmaster postmaster abuse security noc support help helpdesk
    info contact sales billing invoice invoices accounts accounting finance legal compliance privacy dpo gdpr
    noreply no-reply donotreply do-not-reply mailer-daemon mailerdaemon daemon bounce bounces null nobody system
    staff team office hr jobs careers recruiting press media marketing newsletter news notifications notification
    alerts alert service services customerservice customer-service feedback verify verification account
    accounts-team registrar ssl-admin ftp www mail email smtp imap pop pop3 dns api status`,
  finance: `bank banking payments payment pay paypal venmo cashapp zelle wise transferwise revolut stripe square klarna
    afterpay affirm payoneer skrill neteller westernunion moneygram visa mastercard amex americanexpress discover
    dinersclub unionpay jcb maestro applepay googlepay samsungpay alipay wechatpay paytm sofort ideal giropay
    creditcard debitcard loans loan mortgage credit refund refunds tax taxes irs hmrc treasury wallet`,
  government: `government gov fbi cia nsa dhs ice uscis ssa medicare medicaid usps ups-gov police interpol europol
    embassy consulate passport visa-office customs border immigration court courts judge sheriff ministry
    parliament senate congress whitehouse president mayor council municipality tax-office vmi sodra`,
  banks: `chase jpmorgan bankofamerica bofa wellsfargo citi citibank hsbc barclays santander bnp bnpparibas
    societegenerale deutschebank commerzbank ing abnamro rabobank unicredit intesa bbva caixabank lloyds natwest
    rbs tsb halifax nationwide monzo starling n26 bunq seb swedbank luminor citadele nordea danske handelsbanken
    ubs creditsuisse raiffeisen erste otp pko mbank usbank pnc capitalone tdbank truist schwab fidelity vanguard
    goldmansachs morganstanley ally discoverbank`,
  crypto: `binance coinbase kraken bitfinex bitstamp gemini kucoin okx okex bybit huobi htx gateio bitget mexc
    cryptocom crypto blockchain bitcoin ethereum solana phantom metamask trustwallet ledger trezor exodus
    uniswap opensea tether usdt usdc circle ftx bittrex poloniex bitpanda`,
  shipping: `dhl fedex ups usps tnt dpd gls hermes royalmail parcelforce postnl bpost laposte colissimo
    deutschepost omniva lpexpress posti postnord correos canadapost auspost aramex purolator ontrac
    amazonlogistics shipping delivery courier tracking parcel package shipment`,
  telecom: `verizon att tmobile sprint vodafone orange telefonica movistar o2 ee three bt telia tele2 bite
    telekom deutschetelekom swisscom proximus kpn comcast xfinity spectrum charter cox centurylink`,
  tech: `google gmail youtube android apple icloud itunes appstore microsoft outlook hotmail live office365 azure
    windows xbox skype linkedin github amazon aws meta facebook instagram whatsapp messenger twitter tiktok
    snapchat telegram signal discord slack zoom dropbox adobe oracle ibm intel nvidia samsung huawei xiaomi
    netflix spotify uber lyft airbnb booking yahoo aol protonmail proton tutanota tuta zoho yandex mailru
    openai chatgpt anthropic claude cloudflare godaddy namecheap wordpress shopify salesforce docusign
    veilmail`,
  retail: `ebay walmart target costco bestbuy ikea aliexpress alibaba temu shein etsy wayfair homedepot lowes
    zalando asos hm zara nike adidas sephora macys nordstrom kohls tesco sainsburys asda lidl aldi carrefour
    rimi maxima`,
  travel: `airline airlines lufthansa ryanair easyjet wizzair airbaltic klm airfrance britishairways delta united
    americanairlines emirates qatar turkishairlines expedia tripadvisor hotels marriott hilton hyatt agoda
    skyscanner kayak trivago`,
  insurance: `insurance geico progressive allstate statefarm libertymutual aviva axa allianz zurich metlife
    prudential aig ergo gjensidige if-insurance bta claims`,
  urgency: `urgent important security-alert securityalert alert-team fraud fraudalert fraud-alert suspended
    suspension locked unlock verify-account verifyaccount confirm confirmation password passwordreset
    password-reset reset resetpassword recovery recover twofactor 2fa otp login signin sign-in winner prize
    lottery giveaway free gift reward rewards bonus claim action-required actionrequired final-notice
    finalnotice overdue payment-due`,
  honorifics: `mr mrs ms miss dr doctor prof professor sir madam lord lady rev reverend father sister
    captain officer agent detective ceo cfo cto coo founder chairman director manager president-office
    king queen prince princess duke pope`,
}

const normalise = (name: string) => name.toLowerCase().replace(/[._-]/g, '')

export const RESERVED_ALIAS_NAMES: ReadonlySet<string> = new Set(
  Object.values(CATEGORIES).flatMap((list) => list.split(/\s+/).filter(Boolean)).map(normalise),
)

export function isReservedAliasName(name: string): boolean {
  return RESERVED_ALIAS_NAMES.has(name.toLowerCase()) || RESERVED_ALIAS_NAMES.has(normalise(name))
}

export const RESERVED_ALIAS_MESSAGE = 'This alias name is reserved. Please choose a different one.'
