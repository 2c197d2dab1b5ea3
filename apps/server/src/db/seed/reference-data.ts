import type { DeclineCode } from '@pos/domain';
import { ORDER_STATUS, type MerchantCountryCode, type OrderStatusCode } from '@pos/domain';

/**
 * Reference data the demo seed writes: sales tax rates, banks, look-up lists and order status reasons.
 * Codes themselves (states, statuses, …) come from @pos/domain; only the values are here.
 */

/**
 * Base (state / province-wide) sales tax in basis points (1 bp = 0.01 %). Local taxes are not modelled.
 * Rates with a half basis point are rounded half up: Minnesota 6.875 % → 688, Missouri 4.225 % → 423,
 * New Jersey 6.625 % → 663, New Mexico 4.875 % → 488, Quebec GST + QST 14.975 % → 1498 (decision 012).
 */
export const TAX_RATES: Readonly<Record<MerchantCountryCode, Readonly<Record<string, { bp: number; label: string }>>>> =
  {
    US: Object.fromEntries(
      Object.entries({
        AL: 400,
        AK: 0,
        AS: 0,
        AZ: 560,
        AR: 650,
        CA: 725,
        CO: 290,
        CT: 635,
        DE: 0,
        DC: 600,
        FL: 600,
        GA: 400,
        GU: 500,
        HI: 400,
        ID: 600,
        IL: 625,
        IN: 700,
        IA: 600,
        KS: 650,
        KY: 600,
        LA: 500,
        ME: 550,
        MH: 0,
        MD: 600,
        MA: 625,
        MI: 600,
        MN: 688,
        MS: 700,
        MO: 423,
        MT: 0,
        NE: 550,
        NV: 685,
        NH: 0,
        NJ: 663,
        NM: 488,
        NY: 400,
        NC: 475,
        ND: 500,
        MP: 0,
        OH: 575,
        OK: 450,
        OR: 0,
        PA: 600,
        PR: 1150,
        RI: 700,
        SC: 600,
        SD: 420,
        TN: 700,
        TX: 625,
        UT: 610,
        VT: 600,
        VI: 0,
        VA: 530,
        WA: 650,
        WV: 600,
        WI: 500,
        WY: 400,
      }).map(([state, bp]) => [state, { bp, label: bp === 0 ? 'No state sales tax' : 'State sales tax' }]),
    ),
    CA: {
      AB: { bp: 500, label: 'GST' },
      BC: { bp: 1200, label: 'GST + PST' },
      MB: { bp: 1200, label: 'GST + RST' },
      NB: { bp: 1500, label: 'HST' },
      NL: { bp: 1500, label: 'HST' },
      NS: { bp: 1400, label: 'HST' },
      NT: { bp: 500, label: 'GST' },
      NU: { bp: 500, label: 'GST' },
      ON: { bp: 1300, label: 'HST' },
      PE: { bp: 1500, label: 'HST' },
      QC: { bp: 1498, label: 'GST + QST' },
      SK: { bp: 1100, label: 'GST + PST' },
      YT: { bp: 500, label: 'GST' },
    },
  };

export const BANKS: readonly {
  name: string;
  country: MerchantCountryCode;
  routingNumber?: string;
  institutionNumber?: string;
}[] = [
  { name: 'JPMorgan Chase Bank', country: 'US', routingNumber: '021000021' },
  { name: 'Bank of America', country: 'US', routingNumber: '026009593' },
  { name: 'Wells Fargo Bank', country: 'US', routingNumber: '121000248' },
  { name: 'Citibank', country: 'US', routingNumber: '021000089' },
  { name: 'U.S. Bank', country: 'US', routingNumber: '091000022' },
  { name: 'PNC Bank', country: 'US', routingNumber: '043000096' },
  { name: 'Truist Bank', country: 'US', routingNumber: '061000104' },
  { name: 'TD Bank, N.A.', country: 'US', routingNumber: '031201360' },
  { name: 'Capital One', country: 'US', routingNumber: '051405515' },
  { name: 'Regions Bank', country: 'US', routingNumber: '062000019' },
  { name: 'Royal Bank of Canada', country: 'CA', institutionNumber: '003' },
  { name: 'TD Canada Trust', country: 'CA', institutionNumber: '004' },
  { name: 'Bank of Montreal', country: 'CA', institutionNumber: '001' },
  { name: 'Scotiabank', country: 'CA', institutionNumber: '002' },
  { name: 'CIBC', country: 'CA', institutionNumber: '010' },
  { name: 'National Bank of Canada', country: 'CA', institutionNumber: '006' },
  { name: 'Desjardins', country: 'CA', institutionNumber: '815' },
  { name: 'ATB Financial', country: 'CA', institutionNumber: '219' },
];

/** Typed look-up lists (domain_data): the retire reasons of GET /api/domaindata?type=retire_reason and more. */
export const DOMAIN_DATA: Readonly<Record<string, readonly (readonly [code: string, label: string])[]>> = {
  retire_reason: [
    ['store_closed', 'Store closed'],
    ['replaced', 'Replaced with a new terminal'],
    ['defective', 'Defective hardware'],
    ['upgraded', 'Upgraded to a newer model'],
    ['ownership_change', 'Store sold to a new owner'],
    ['non_payment', 'Non-payment'],
    ['customer_canceled', 'Customer canceled service'],
    ['lost_stolen', 'Lost or stolen'],
  ],
  business_type: [
    ['llc', 'LLC'],
    ['corporation', 'Corporation'],
    ['sole_proprietorship', 'Sole Proprietorship'],
    ['partnership', 'Partnership'],
    ['s_corporation', 'S Corporation'],
  ],
  internet_connection_type: [
    ['cable', 'Cable'],
    ['dsl', 'DSL'],
    ['fiber', 'Fiber'],
    ['lte', '4G/LTE'],
    ['satellite', 'Satellite'],
  ],
  return_reason: [
    ['defective', 'Defective on arrival'],
    ['store_closed', 'Store closed'],
    ['wrong_item', 'Wrong item shipped'],
    ['changed_mind', 'Merchant changed their mind'],
  ],
};

/** Reasons staff can give when an order moves to a status (status_reasons). */
export const STATUS_REASONS: Readonly<Partial<Record<OrderStatusCode, readonly string[]>>> = {
  [ORDER_STATUS.INCOMPLETE]: [
    'Missing business license',
    'Missing voided check',
    'Missing federal tax id',
    'Store pictures needed',
  ],
  [ORDER_STATUS.REJECTED]: [
    'Failed credit check',
    'Duplicate order',
    'Merchant declined the contract',
    'Unsupported business type',
  ],
  [ORDER_STATUS.PENDING_ONBOARDING]: ['Waiting for the onboarding system', 'Merchant ID requested'],
  [ORDER_STATUS.PENDING_CONTRACT_SIGN]: ['Contract sent to the merchant', 'Reauthorization requested'],
  [ORDER_STATUS.SUBMITTED_TO_SUPPORT]: ['Sent to support for review', 'Custom configuration requested'],
  [ORDER_STATUS.PETRO_APPROVAL]: ['Waiting for Petro approval', 'Fuel controller model check'],
  [ORDER_STATUS.PENDING_NRS_PAY_APPROVAL]: ['Processor underwriting', 'Waiting for bank letter'],
  [ORDER_STATUS.PENDING_AR_APPROVAL]: [
    'Deposit not received',
    'Past-due balance on another store',
    'Waiting for AR review',
  ],
  [ORDER_STATUS.AR_CONTRACT_REGENERATED]: ['Pricing changed', 'Plan changed'],
  [ORDER_STATUS.AR_SUBMITTED]: ['Approved by AR'],
  [ORDER_STATUS.INSTALLATION]: ['Hardware shipped', 'Installation scheduled'],
  [ORDER_STATUS.POS_CANCELED]: [
    'Merchant canceled',
    'Store closed before installation',
    'Could not reach the merchant',
  ],
  [ORDER_STATUS.POS_POSTPONED]: [
    'Store not ready',
    'Merchant asked for a later date',
    'Waiting on internet installation',
  ],
  [ORDER_STATUS.COMPLETE]: ['Installed and trained'],
};

const S = ORDER_STATUS;
const TO_AR: OrderStatusCode[] = [S.DRAFT, S.PENDING_CONTRACT_SIGN, S.PENDING_NRS_PAY_APPROVAL, S.PENDING_AR_APPROVAL];
const TO_SUBMITTED: OrderStatusCode[] = [...TO_AR, S.AR_SUBMITTED];
const TO_INSTALL: OrderStatusCode[] = [...TO_SUBMITTED, S.PENDING_ONBOARDING, S.INSTALLATION];

/**
 * The demo history that leads to each status. The domain package does not define allowed transitions yet
 * (spec: "not shown"); these paths follow the queues of §6: sales (Draft) → contract (RAM Support) →
 * NRS Pay → AR → onboarding → installation (Operations) → complete.
 */
export const STATUS_PATHS: Readonly<Record<OrderStatusCode, readonly OrderStatusCode[]>> = {
  [S.DRAFT]: [S.DRAFT],
  [S.INCOMPLETE]: [S.DRAFT, S.INCOMPLETE],
  [S.PENDING_CONTRACT_SIGN]: [S.DRAFT, S.PENDING_CONTRACT_SIGN],
  [S.PETRO_APPROVAL]: [S.DRAFT, S.PENDING_CONTRACT_SIGN, S.PETRO_APPROVAL],
  [S.PENDING_NRS_PAY_APPROVAL]: [S.DRAFT, S.PENDING_CONTRACT_SIGN, S.PENDING_NRS_PAY_APPROVAL],
  [S.PENDING_AR_APPROVAL]: TO_AR,
  [S.REJECTED]: [...TO_AR, S.REJECTED],
  [S.AR_CONTRACT_REGENERATED]: [...TO_AR, S.AR_CONTRACT_REGENERATED],
  [S.AR_SUBMITTED]: TO_SUBMITTED,
  [S.SUBMITTED_TO_SUPPORT]: [...TO_SUBMITTED, S.SUBMITTED_TO_SUPPORT],
  [S.PENDING_ONBOARDING]: [...TO_SUBMITTED, S.PENDING_ONBOARDING],
  [S.INSTALLATION]: TO_INSTALL,
  [S.POS_CANCELED]: [...TO_INSTALL, S.POS_CANCELED],
  [S.POS_POSTPONED]: [...TO_INSTALL, S.POS_POSTPONED],
  [S.COMPLETE]: [...TO_INSTALL, S.COMPLETE],
};

/** Who moves an order into each status (the staff user whose queue it is). */
export const STATUS_ACTOR: Readonly<Record<OrderStatusCode, string>> = {
  [S.DRAFT]: 'is',
  [S.INCOMPLETE]: 'ramsupport',
  [S.REJECTED]: 'ar',
  [S.PENDING_ONBOARDING]: 'ops',
  [S.PENDING_CONTRACT_SIGN]: 'ram',
  [S.SUBMITTED_TO_SUPPORT]: 'support',
  [S.PETRO_APPROVAL]: 'ramsupport',
  [S.PENDING_NRS_PAY_APPROVAL]: 'ramsupport',
  [S.PENDING_AR_APPROVAL]: 'nrspay',
  [S.AR_CONTRACT_REGENERATED]: 'ar',
  [S.AR_SUBMITTED]: 'ar',
  [S.INSTALLATION]: 'ops',
  [S.POS_CANCELED]: 'ops',
  [S.POS_POSTPONED]: 'ops',
  [S.COMPLETE]: 'ops',
};

/** The staff users of the demo (issue 3): username@example.com, role, display name. */
export const DEMO_STAFF = [
  { username: 'admin', role: 'Admin', name: 'Alex Morgan' },
  { username: 'ar', role: 'AR Team', name: 'Priya Raman' },
  /** A second AR approver: a memo over the credit threshold needs someone other than its requester (decision 120). */
  { username: 'ar2', role: 'AR Team', name: 'Ben Okafor' },
  { username: 'service', role: 'Customer Service', name: 'Marcus Hill' },
  { username: 'support', role: 'Customer Support', name: 'Dana Whitfield' },
  { username: 'care', role: 'Customer Care', name: 'Rosa Alvarez' },
  { username: 'nrspay', role: 'NRS Pay Support', name: 'Kenji Sato' },
  { username: 'ramsupport', role: 'RAM Support', name: 'Olivia Grant' },
  { username: 'ops', role: 'Operations', name: 'Victor Osei' },
  { username: 'marketing', role: 'Marketing', name: 'Chloe Bennett' },
  { username: 'ram', role: 'RAM', name: 'Samir Haddad' },
  { username: 'is', role: 'IS', name: 'Hannah Price' },
  { username: 'rss', role: 'RSS', name: 'Luis Ortega' },
  { username: 'mss', role: 'MSS', name: 'Grace Liu' },
  { username: 'rdc', role: 'RDC', name: 'Tom Becker' },
  { username: 'distributor', role: 'Distributor', name: 'Nora Quinn' },
] as const;

export const DEMO_DISTRIBUTOR_LOGIN = {
  email: 'distributor@example.com',
  password: 'distributor-demo',
  name: 'Nora Quinn',
} as const;

/** The decline code of each seeded failure reason (decision 116). */
export const FAILURE_REASON_CODES: Readonly<Record<(typeof FAILURE_REASONS)[number], DeclineCode>> = {
  'Insufficient funds': 'insufficient_funds',
  'Card expired': 'expired_card',
  'Do not honor': 'do_not_honor',
  'Account closed': 'account_closed',
  'Invalid account number': 'invalid_account',
  'Payment stopped by the account holder': 'do_not_honor',
  'Card reported lost or stolen': 'lost_card',
  'Bank account frozen': 'issuer_unavailable',
};

export const FAILURE_REASONS = [
  'Insufficient funds',
  'Card expired',
  'Do not honor',
  'Account closed',
  'Invalid account number',
  'Payment stopped by the account holder',
  'Card reported lost or stolen',
  'Bank account frozen',
] as const;

export const CHARGEBACK_REASONS = [
  'Chargeback: merchant does not recognize the charge',
  'Chargeback: service canceled',
  'Chargeback: duplicate processing',
] as const;

export const MEMO_REASONS = [
  'Service outage credit',
  'Billing error: duplicate monthly fee',
  'Terminal returned within 30 days',
  'Goodwill credit for installation delay',
  'Promotion not applied at sale',
  'Tax charged on an exempt store',
  'Refund of overpayment',
  'Price match adjustment',
] as const;

export const ORDER_NOTE_TEXTS = [
  'Merchant prefers a morning installation.',
  'Called the owner; contract will be signed this week.',
  'Store has two checkout lanes; second terminal may follow.',
  'Internet is being installed next Tuesday.',
  'Merchant asked about EBT support.',
  'Sent the voided check request again.',
  'Price book import requested from the old POS.',
  'Owner speaks Spanish; training in Spanish requested.',
  'Needs a scale integration for the deli counter.',
  'Confirmed shipping address with the manager.',
] as const;

export const CUSTOMER_NOTE_TEXTS = [
  'Merchant called about a receipt printer jam; fixed over the phone.',
  'Updated the store hours in the back office.',
  "Asked for a copy of last month's invoice; sent by e-mail.",
  'Requested training for a new cashier.',
  'Payment method updated after a failed charge.',
  'Interested in the loyalty program; sent pricing.',
  'Reported slow scanner; replacement offered.',
  'Asked to move the monthly charge date.',
] as const;
