import { Alert, Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  blankOrder,
  CRM_LEAD_ID,
  isStateOf,
  validateZip,
  type CrmLeadInfo,
  type CustomerRecord,
  type OrderDocument,
  type StoreRecord,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useCustomer } from '../../../api/customers';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { usePageCountry } from '../../../lib/header-state';
import { getCrmLeadQueryOptions, getCustomerIdByFedTaxIdQueryOptions, useCreateOrder } from '../api/order-flow';
import { markFromNewOrder } from '../lib/draft-store';
import { stepPath } from '../lib/flow';

type Country = 'US' | 'CA';

function addressOf(a: CustomerRecord['home_address'], country: Country) {
  return a
    ? { address1: a.address1, address2: a.address2 ?? '', city: a.city, state: a.state, zip: a.zip, country }
    : { address1: '', address2: '', city: '', state: '', zip: '', country };
}

/** The §3 blank template with the choices of the new-order page, prefilled from an existing customer and store. */
export function startingDocument(input: {
  orderType: 'P' | 'N';
  flow: 'AR' | 'RAM';
  country: Country;
  customer?: CustomerRecord;
  store?: StoreRecord;
  /** A CRM lead (#/neworder?zoholeadid=…): fills what the customer and store left empty, marks a CRM order (159). */
  crm?: CrmLeadInfo;
}): OrderDocument {
  const doc = blankOrder();
  const { customer, store, country } = input;
  doc.orderType = input.orderType;
  doc.flow = input.flow;
  for (const key of ['HomeAddress', 'BillingAddress', 'ShippingAddress'] as const) doc[key] = { ...doc[key], country };
  doc.StoreInfo = {
    ...doc.StoreInfo,
    StoreAddress: { ...doc.StoreInfo!.StoreAddress, country },
    DbaAddress: { ...doc.StoreInfo!.DbaAddress, country },
  };
  if (input.orderType === 'N') doc.noOfTerminals = 0;
  if (customer) {
    doc.CustomerInfo = {
      ...doc.CustomerInfo,
      title: customer.title,
      firstName: customer.first_name,
      lastName: customer.last_name,
      phone: customer.phone ?? '',
      email: customer.email,
      federalTaxId: customer.federal_tax_id ?? '',
      brAcct: customer.bracct,
      legalName: customer.legal_name,
    };
    doc.HomeAddress = addressOf(customer.home_address, country);
    doc.BillingAddress = addressOf(customer.billing_address ?? customer.home_address, country);
    doc.ShippingAddress = addressOf(customer.shipping_address ?? customer.home_address, country);
    doc.additionalInfo = { ...doc.additionalInfo, customerID: customer.customer_id };
  }
  if (store) {
    doc.StoreInfo = {
      ...doc.StoreInfo,
      customerStoreId: store.store_id,
      doingBusinessAs: store.doing_business_as,
      storeName: store.store_name,
      phone: store.phone ?? '',
      kindOfBusiness: store.kind_of_business,
      StoreAddress: addressOf(store.address, country),
    };
    doc.salesRep = store.sales_rep;
  }
  if (input.crm) fillFromLead(doc, input.crm, country);
  return doc;
}

const isBlank = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');

/**
 * Fill the document's empty fields from a CRM lead (the user changes them at Store information) and mark the order as
 * a CRM order: the lead id and the external order marker (the server stamps the configured mark; decision 159). The
 * lead's address is used only in its own country, its state and ZIP only when they fit it.
 */
export function fillFromLead(doc: OrderDocument, { lead, crm }: CrmLeadInfo, country: Country): void {
  const fill = <T extends object>(target: T, values: Record<string, string | null | undefined>): T => {
    const out = { ...target } as Record<string, unknown>;
    for (const [key, value] of Object.entries(values)) if (isBlank(out[key]) && !isBlank(value)) out[key] = value;
    return out as T;
  };
  doc.CustomerInfo = fill(doc.CustomerInfo ?? {}, {
    firstName: lead.first_name,
    lastName: lead.last_name,
    email: lead.email,
    phone: lead.phone,
    legalName: lead.legal_name,
  });
  const sameCountry = lead.country === '' || lead.country === country;
  const address = sameCountry
    ? {
        address1: lead.address1,
        city: lead.city,
        state: isStateOf(country, lead.state) ? lead.state : '',
        zip: validateZip(country, lead.zip).ok ? lead.zip : '',
      }
    : {};
  for (const key of ['HomeAddress', 'BillingAddress', 'ShippingAddress'] as const) {
    if (isBlank(doc[key]?.address1)) doc[key] = fill({ ...doc[key], country }, address);
  }
  const storeInfo = fill(doc.StoreInfo ?? {}, {
    doingBusinessAs: lead.dba || lead.legal_name,
    storeName: lead.dba || lead.legal_name,
    phone: lead.phone,
  });
  if (isBlank(storeInfo.StoreAddress?.address1))
    storeInfo.StoreAddress = fill({ ...storeInfo.StoreAddress, country }, address);
  doc.StoreInfo = storeInfo;
  if (isBlank(doc.salesRep) && lead.sales_rep_email) doc.salesRep = lead.sales_rep_email;
  doc.CrmOrder = { leadId: lead.lead_id, externalOrderMarker: crm.external_order_marker };
}

/**
 * #/neworder, #/neworder/{fedTaxId}, #/neworder/{fedTaxId}/{storeId} (create_distributor_orders): choose the order type,
 * flow and country, and start the order from the §3 blank template (prefilled from the customer and store when given).
 */
export default function NewOrderPage() {
  const { fedTaxId, storeId } = useParams();
  const [search] = useSearchParams();
  const leadId = search.get('zoholeadid')?.trim() || null;
  const leadIdValid = leadId !== null && CRM_LEAD_ID.test(leadId);
  const crmLead = useQuery({ ...getCrmLeadQueryOptions(leadId ?? ''), enabled: leadIdValid });
  const crm = crmLead.data;
  const navigate = useNavigate();
  const found = useQuery({ ...getCustomerIdByFedTaxIdQueryOptions(fedTaxId ?? ''), enabled: Boolean(fedTaxId) });
  const lookup = useCustomer(found.data ?? null);
  const customer = lookup.data;
  const looking =
    (Boolean(fedTaxId) && (found.isPending || (found.isSuccess && lookup.isPending))) ||
    (leadIdValid && crmLead.isPending);
  const store = customer?.stores.find((s) => String(s.store_id) === storeId);
  const [orderType, setOrderType] = useState<'P' | 'N'>('P');
  const [flow, setFlow] = useState<'AR' | 'RAM'>('AR');
  const [picked, setCountry] = useState<Country | null>(null);
  // Until the user picks one, a lead's country is the order's (decision 159).
  const chosenCountry: Country = picked ?? (crm?.lead.country === 'CA' ? 'CA' : 'US');
  const country: Country = customer ? (customer.country === 'CA' ? 'CA' : 'US') : chosenCountry;
  const create = useCreateOrder();
  const busy = create.isPending;
  usePageCountry(country);

  const start = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(startingDocument({ orderType, flow, country, customer, store, crm }) as Record<string, unknown>, {
      onSuccess: (created) => {
        markFromNewOrder(created.orderInfoId);
        notifications.show({
          color: 'green',
          title: 'Order started',
          message: `Order ${created.unifiedOrderId} is a draft. Fill in the store information.`,
        });
        void navigate(stepPath('storeInfo', created.orderInfoId));
      },
      onError: (error) => {
        const said = describeError(error);
        notifications.show({ color: 'red', title: said.title, message: said.message });
      },
    });
  };

  if (looking) return <Spinner busy />;
  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        New order
      </Title>
      {fedTaxId && (found.isError || lookup.isError) && (
        <Alert color="yellow" title="Customer not found">
          No customer has the federal tax id {fedTaxId}. You can still start an order for a new merchant.
        </Alert>
      )}
      {leadId && !leadIdValid && (
        <Alert color="yellow" title="CRM lead not found">
          {leadId} is not a CRM lead id (digits only). You can still start the order without it.
        </Alert>
      )}
      {crmLead.isError && (
        <Alert
          color="yellow"
          title={
            (crmLead.error as { status?: number }).status === 404
              ? 'CRM lead not found'
              : describeError(crmLead.error).title
          }
        >
          {describeError(crmLead.error).message} You can still start the order without it.
        </Alert>
      )}
      {crm && (
        <Alert color="blue" title="CRM order">
          From CRM lead {crm.lead.lead_id} ({crm.crm.organisation_name}): {crm.lead.legal_name || crm.lead.dba}. Its
          details fill the order&apos;s empty fields; you can change them at Store information.
        </Alert>
      )}
      {customer && (
        <Text>
          For {customer.legal_name}
          {store ? `, store ${store.doing_business_as} (${store.store_id})` : ''}.
        </Text>
      )}
      <form onSubmit={start} aria-label="Start an order">
        <Stack gap="md">
          <Radio.Group label="Order type" value={orderType} onChange={(v) => setOrderType(v as 'P' | 'N')}>
            <Group mt="xs">
              <Radio value="P" label="POS (hardware and software)" />
              <Radio value="N" label="Non-POS (service plan only)" />
            </Group>
          </Radio.Group>
          <Radio.Group label="Flow" value={flow} onChange={(v) => setFlow(v as 'AR' | 'RAM')}>
            <Group mt="xs">
              <Radio value="AR" label="AR" />
              <Radio value="RAM" label="RAM" />
            </Group>
          </Radio.Group>
          {!customer && (
            <Radio.Group label="Country" value={chosenCountry} onChange={(v) => setCountry(v as Country)}>
              <Group mt="xs">
                <Radio value="US" label="United States" />
                <Radio value="CA" label="Canada" />
              </Group>
            </Radio.Group>
          )}
          <Group>
            <Button type="submit" loading={busy}>
              Start order
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
