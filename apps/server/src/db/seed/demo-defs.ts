import {
  AGENT_TYPE,
  type AgentType,
  type CurrencyCode,
  type MerchantCountryCode,
  type SalesChannel,
} from '@pos/domain';

export const AGENT_DEFS: readonly {
  key: string;
  name: string;
  type: AgentType;
  code?: number;
  parent?: string;
  country?: MerchantCountryCode;
}[] = [
  { key: 'demo', name: 'Demo Distributor LLC', type: AGENT_TYPE.DISTRIBUTOR, code: 5 },
  { key: 'gulfcoast', name: 'Gulf Coast POS Distributors', type: AGENT_TYPE.DISTRIBUTOR, code: 7 },
  {
    key: 'gulfcoast.houston',
    name: 'Gulf Coast POS - Houston',
    type: AGENT_TYPE.DISTRIBUTOR,
    code: 7,
    parent: 'gulfcoast',
  },
  { key: 'greatlakes', name: 'Great Lakes Retail Systems', type: AGENT_TYPE.DISTRIBUTOR, code: 8 },
  { key: 'maple', name: 'Maple POS Distribution Ltd.', type: AGENT_TYPE.DISTRIBUTOR, code: 5, country: 'CA' },
  { key: 'sunbelt', name: 'Sunbelt Referral Partners', type: AGENT_TYPE.REFP, code: 2 },
  { key: 'northeast', name: 'Northeast Merchant Referrals', type: AGENT_TYPE.REFP, code: 4 },
  { key: 'prairie', name: 'Prairie Retail Referrals', type: AGENT_TYPE.REFP, code: 2, country: 'CA' },
  { key: 'rdc.southwest', name: 'RDC Southwest', type: AGENT_TYPE.RDC, code: 1 },
  { key: 'rdc.southeast', name: 'RDC Southeast', type: AGENT_TYPE.RDC, code: 1 },
  { key: 'rdc.central', name: 'RDC Central', type: AGENT_TYPE.RDC, code: 1, parent: 'rdc.southwest' },
];

export const SALES_PEOPLE: readonly {
  name: string;
  channel: SalesChannel;
  agent?: string;
  country?: MerchantCountryCode;
  manager: string;
}[] = [
  { name: 'Jordan Reyes', channel: 'IS', manager: 'is' },
  { name: 'Emily Carter', channel: 'IS', manager: 'is' },
  { name: 'Aisha Mohammed', channel: 'IS', manager: 'is' },
  { name: 'Ryan Fischer', channel: 'IS', manager: 'is', country: 'CA' },
  { name: 'Brian Kowalski', channel: 'RAM', manager: 'ram' },
  { name: 'Sandra Lee', channel: 'RAM', manager: 'ram' },
  { name: 'Miguel Torres', channel: 'RAM', manager: 'ram' },
  { name: 'Megan Foster', channel: 'RAM', manager: 'ram', country: 'CA' },
  { name: "Kevin O'Neil", channel: 'MSS', manager: 'mss' },
  { name: 'Fatima Noor', channel: 'MSS', manager: 'mss' },
  { name: 'Daniel Wright', channel: 'Distributor', agent: 'demo', manager: 'distributor' },
  { name: 'Carlos Mendez', channel: 'Distributor', agent: 'gulfcoast.houston', manager: 'distributor' },
  { name: 'Nancy Brooks', channel: 'Distributor', agent: 'greatlakes', manager: 'distributor' },
  { name: 'Julie Tremblay', channel: 'Distributor', agent: 'maple', manager: 'distributor', country: 'CA' },
];

export interface PromoDef {
  code: string;
  name: string;
  type: 'H' | 'S' | 'R';
  method: 'A' | 'P';
  value: number;
  customerType: string;
  currency: CurrencyCode;
  billingItemId: number;
  startsIn: number;
  expiresIn: number | null;
}
export const PROMOS: readonly PromoDef[] = [
  {
    code: 'WELCOME100',
    name: 'New store: $100 off hardware',
    type: 'H',
    method: 'A',
    value: 100_00,
    customerType: 'N',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -300,
    expiresIn: null,
  },
  {
    code: 'WELCOME100',
    name: 'New store: C$130 off hardware',
    type: 'H',
    method: 'A',
    value: 130_00,
    customerType: 'N',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -300,
    expiresIn: null,
  },
  {
    code: 'SPRING50',
    name: 'Spring hardware sale',
    type: 'H',
    method: 'A',
    value: 50_00,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -420,
    expiresIn: -330,
  },
  {
    code: 'SUMMER10',
    name: 'Summer: 10% off hardware',
    type: 'H',
    method: 'P',
    value: 10,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -260,
    expiresIn: -170,
  },
  {
    code: 'UPGRADE15',
    name: 'Upgrades: 15% off',
    type: 'H',
    method: 'P',
    value: 15,
    customerType: 'U',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -90,
    expiresIn: 180,
  },
  {
    code: 'TRANSFER75',
    name: 'Transfer incentive',
    type: 'H',
    method: 'A',
    value: 75_00,
    customerType: 'T',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -60,
    expiresIn: 300,
  },
  {
    code: 'REPLACE20',
    name: 'Replacement: 20% off',
    type: 'H',
    method: 'P',
    value: 20,
    customerType: 'R',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -30,
    expiresIn: 365,
  },
  {
    code: 'EXISTING25',
    name: 'Existing store add-on: $25 off',
    type: 'H',
    method: 'A',
    value: 25_00,
    customerType: 'E',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -120,
    expiresIn: null,
  },
  {
    code: 'FREEMONTH',
    name: 'First month of service free',
    type: 'S',
    method: 'P',
    value: 100,
    customerType: 'N',
    currency: 'USD',
    billingItemId: 67,
    startsIn: -200,
    expiresIn: 120,
  },
  {
    code: 'FREEMONTH',
    name: 'First month of service free',
    type: 'S',
    method: 'P',
    value: 100,
    customerType: 'N',
    currency: 'CAD',
    billingItemId: 67,
    startsIn: -200,
    expiresIn: 120,
  },
  {
    code: 'REFER50',
    name: 'Referral credit',
    type: 'R',
    method: 'A',
    value: 50_00,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 68,
    startsIn: -365,
    expiresIn: null,
  },
  {
    code: 'CANADA75',
    name: 'Canada launch: C$75 off',
    type: 'H',
    method: 'A',
    value: 75_00,
    customerType: 'A',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -500,
    expiresIn: -200,
  },
  {
    code: 'HOLIDAY20',
    name: 'Holiday: 20% off hardware',
    type: 'H',
    method: 'P',
    value: 20,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -420,
    expiresIn: -380,
  },
  {
    code: 'HOLIDAY20',
    name: 'Holiday: 20% off hardware',
    type: 'H',
    method: 'P',
    value: 20,
    customerType: 'A',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -420,
    expiresIn: -380,
  },
  {
    code: 'PETRO200',
    name: 'Petro system: $200 off',
    type: 'H',
    method: 'A',
    value: 200_00,
    customerType: 'N',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -100,
    expiresIn: 200,
  },
  {
    code: 'NRSPAY3',
    name: 'NRS Pay: three months at half price',
    type: 'S',
    method: 'P',
    value: 50,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 67,
    startsIn: -45,
    expiresIn: 45,
  },
  {
    code: 'QUEBEC10',
    name: 'Quebec: 10% off hardware',
    type: 'H',
    method: 'P',
    value: 10,
    customerType: 'N',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -20,
    expiresIn: 340,
  },
];

export const agentEmail = (key: string) => `agent.${key}@example.com`;
