import { Checkbox, Fieldset, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { orderCustomerType, orderHasCustomer, SALE_KIND_CHOICES, SALE_KINDS, type OrderDocument } from '@pos/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AddressBlock, addressErrors, type AddressValue } from '../components/address-block';
import { OrderStepPage, type StepContext } from '../components/order-step-page';
import { OrderStoreFiles } from '../components/order-store-files';
import { StepFrame } from '../components/step-frame';
import { countryOf, setIn, textAt } from '../lib/doc';
import { nextStep, stepPath } from '../lib/flow';
import { useDraft } from '../lib/use-draft';

const LANGUAGES = ['English', 'Spanish', 'French'];

function sameAddress(a: AddressValue | null | undefined, b: AddressValue | null | undefined): boolean {
  return ['address1', 'address2', 'city', 'state', 'zip'].every(
    (k) => (a?.[k as keyof AddressValue] ?? '') === (b?.[k as keyof AddressValue] ?? ''),
  );
}

function StoreInfoStep({ orderId, doc, orderType, flow }: StepContext) {
  const navigate = useNavigate();
  const [draft, update] = useDraft(doc);
  const [billingSame, setBillingSame] = useState(() => sameAddress(doc.HomeAddress, doc.BillingAddress));
  const [shippingSame, setShippingSame] = useState(() => sameAddress(doc.HomeAddress, doc.ShippingAddress));
  const [storeSame, setStoreSame] = useState(
    () => !doc.StoreInfo?.StoreAddress?.address1 || sameAddress(doc.HomeAddress, doc.StoreInfo?.StoreAddress),
  );
  const [busy, setBusy] = useState(false);
  if (!draft) return null;
  const country = countryOf(draft);
  const e = flow.errors;
  const customerId = flow.record?.customer_id ?? null;
  const existingCustomer = orderHasCustomer(draft, customerId);
  const field = (
    label: string,
    path: string,
    options: { required?: boolean; type?: string; autoComplete?: string } = {},
  ) => (
    <TextInput
      label={label}
      required={options.required}
      type={options.type}
      autoComplete={options.autoComplete}
      value={textAt(draft, path)}
      onChange={(x) => {
        const value = x.currentTarget.value;
        update((d) => setIn(d, path, value));
      }}
      error={e[path]}
    />
  );

  const submit = async () => {
    let next: OrderDocument = draft;
    if (billingSame) next = { ...next, BillingAddress: { ...next.HomeAddress } };
    if (shippingSame) next = { ...next, ShippingAddress: { ...next.HomeAddress } };
    if (storeSame) next = setIn(next, 'StoreInfo.StoreAddress', { ...next.HomeAddress });
    // The kind of sale shown is saved with the step (E when the rep kept the default).
    if (existingCustomer) next = setIn(next, 'additionalInfo.saleKind', orderCustomerType(next, customerId));
    setBusy(true);
    const outcome = await flow.save(next);
    setBusy(false);
    if (outcome === 'saved' || outcome === 'kept') void navigate(stepPath(nextStep(orderType, 'storeInfo')!, orderId));
  };

  return (
    <StepFrame
      orderId={orderId}
      step="storeInfo"
      orderType={orderType}
      country={country}
      title="Store information"
      reference={flow.record?.unifiedOrderId}
      pending={flow.pending}
      busy={busy}
      onSubmit={() => void submit()}
    >
      {existingCustomer && (
        // An existing customer's order says what kind of sale it is; promotions for transfers, upgrades or
        // replacements fit only that kind (decision 163). A new merchant's order is always a new store: no select.
        <NativeSelect
          label="Kind of sale"
          description="Promotions for transfers, upgrades or replacements apply only to that kind of sale."
          maw={480}
          value={orderCustomerType(draft, customerId)}
          onChange={(x) => {
            const value = x.currentTarget.value;
            update((d) => setIn(d, 'additionalInfo.saleKind', value));
          }}
          data={SALE_KINDS.map((k) => ({ value: k, label: SALE_KIND_CHOICES[k] }))}
          error={e['additionalInfo.saleKind']}
        />
      )}
      <Fieldset legend="Merchant">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {field('Legal business name', 'CustomerInfo.legalName')}
          {field('Federal tax id', 'CustomerInfo.federalTaxId', { required: true })}
          {field('First name', 'CustomerInfo.firstName', { required: true, autoComplete: 'given-name' })}
          {field('Last name', 'CustomerInfo.lastName', { required: true, autoComplete: 'family-name' })}
          {field('E-mail', 'CustomerInfo.email', { required: true, type: 'email', autoComplete: 'email' })}
          {field('Phone', 'CustomerInfo.phone', { required: true, type: 'tel', autoComplete: 'tel' })}
          {field('Business type', 'CustomerInfo.businessType')}
          {field('Sales rep', 'salesRep')}
        </SimpleGrid>
      </Fieldset>
      <AddressBlock
        legend="Legal (home) address"
        country={country}
        value={draft.HomeAddress}
        onChange={(a) => update((d) => ({ ...d, HomeAddress: a }))}
        errors={addressErrors(e, 'HomeAddress')}
      />
      <Checkbox
        label="Billing address is the legal address"
        checked={billingSame}
        onChange={(x) => setBillingSame(x.currentTarget.checked)}
      />
      {!billingSame && (
        <AddressBlock
          legend="Billing address"
          country={country}
          value={draft.BillingAddress}
          onChange={(a) => update((d) => ({ ...d, BillingAddress: a }))}
          errors={addressErrors(e, 'BillingAddress')}
        />
      )}
      <Checkbox
        label="Shipping address is the legal address"
        checked={shippingSame}
        onChange={(x) => setShippingSame(x.currentTarget.checked)}
      />
      {!shippingSame && (
        <AddressBlock
          legend="Shipping address"
          country={country}
          value={draft.ShippingAddress}
          onChange={(a) => update((d) => ({ ...d, ShippingAddress: a }))}
          errors={addressErrors(e, 'ShippingAddress')}
        />
      )}
      <Fieldset legend="Store">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {field('Doing business as', 'StoreInfo.doingBusinessAs', { required: true })}
          {field('Store name', 'StoreInfo.storeName', { required: true })}
          {field('Store phone', 'StoreInfo.phone', { required: true, type: 'tel' })}
          {field('Kind of business', 'StoreInfo.kindOfBusiness')}
          {field('Current POS', 'StoreInfo.currentPos')}
          <NativeSelect
            label="Preferred training language"
            value={textAt(draft, 'preferredTrainingLanguage')}
            onChange={(x) => {
              const value = x.currentTarget.value;
              update((d) => ({ ...d, preferredTrainingLanguage: value || null }));
            }}
            data={[{ value: '', label: 'No preference' }, ...LANGUAGES]}
          />
        </SimpleGrid>
        <Stack gap="xs" mt="sm">
          <Checkbox
            label="Store is at the legal address"
            checked={storeSame}
            onChange={(x) => setStoreSame(x.currentTarget.checked)}
          />
          <Checkbox
            label="The merchant agrees to text messages on the mobile phone"
            checked={draft.mobileConsent === 'Y'}
            onChange={(x) => {
              const checked = x.currentTarget.checked;
              update((d) => ({ ...d, mobileConsent: checked ? 'Y' : 'N' }));
            }}
          />
        </Stack>
      </Fieldset>
      {!storeSame && (
        <AddressBlock
          legend="Store address"
          country={country}
          value={draft.StoreInfo?.StoreAddress}
          onChange={(a) => update((d) => setIn(d, 'StoreInfo.StoreAddress', a))}
          errors={addressErrors(e, 'StoreInfo.StoreAddress')}
        />
      )}
      <OrderStoreFiles doc={draft} />
    </StepFrame>
  );
}

/** #/store-info/{orderId}: step 1 — the kind of sale (an existing customer's order), the merchant, its addresses and the store. */
export default function StoreInfoPage() {
  return <OrderStepPage>{(ctx) => <StoreInfoStep {...ctx} />}</OrderStepPage>;
}
