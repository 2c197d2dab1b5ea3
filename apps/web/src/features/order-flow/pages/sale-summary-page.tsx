import { Button, Checkbox, Fieldset, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  centsToDecimal,
  orderCustomerType,
  orderTotals,
  promotionRefusal,
  type OrderBillingItemEntry,
  type OrderBundleEntry,
  type OrderPromotionEntry,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { getBundleCatalogueQueryOptions, getProductsQueryOptions } from '../../../api/catalogue';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { findPromotion } from '../api/order-flow';
import { OrderStepPage, type StepContext } from '../components/order-step-page';
import { ChargeQuantities, ProductQuantities, terminalCount } from '../components/product-quantities';
import { StepFrame } from '../components/step-frame';
import { OrderTotalsTable } from '../../../components/totals-table';
import { countryOf } from '../lib/doc';
import { nextStep, stepPath } from '../lib/flow';
import { useDraft } from '../lib/use-draft';
import { formatCents, todayIso } from '../../../lib/format';

const CHECKLIST = [
  { key: 'hardwareReviewed', label: 'The merchant reviewed the hardware list' },
  { key: 'internetConfirmed', label: 'An internet connection at the store is confirmed' },
  { key: 'installDateDiscussed', label: 'An installation date was discussed' },
] as const;

const qty = (text: string) => Math.max(0, Math.min(999, Number.parseInt(text, 10) || 0));

function SaleSummaryStep({ orderId, doc, orderType, flow }: StepContext) {
  const navigate = useNavigate();
  const [draft, update] = useDraft(doc);
  const country = countryOf(doc);
  const currency = country === 'CA' ? 'CAD' : 'USD';
  const products = useQuery(getProductsQueryOptions(currency));
  const bundles = useQuery(getBundleCatalogueQueryOptions(currency));
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!draft) return null;

  const items = (draft.BillingItemInfo ?? []) as OrderBillingItemEntry[];
  const bundleItems = (draft.BundleInfo ?? []) as OrderBundleEntry[];
  const promos = (draft.PromotionInfo ?? []) as OrderPromotionEntry[];
  const bundleQuantity = (bundleId: number) => bundleItems.find((b) => b.bundleId === bundleId)?.quantity ?? 0;
  const totals = orderTotals(draft);
  const terminalIds = new Set(
    (products.data?.products ?? []).filter((p) => p.terminal_product || p.kind === 'terminal').map((p) => p.product_id),
  );
  const terminals = terminalCount(items, terminalIds);

  const setBundle = (
    b: { bundle_id: number; name: string; monthly_price_cents: number | null; nrs_pay: boolean },
    quantity: number,
  ) =>
    update((d) => {
      const rest = ((d.BundleInfo ?? []) as OrderBundleEntry[]).filter((x) => x.bundleId !== b.bundle_id);
      const entry: OrderBundleEntry = {
        bundleId: b.bundle_id,
        name: b.name,
        quantity,
        unitPrice: '0.00',
        monthlyPrice: centsToDecimal(b.monthly_price_cents ?? 0),
        nrsPay: b.nrs_pay,
      };
      return { ...d, BundleInfo: quantity > 0 ? [...rest, entry] : rest };
    });

  const applyCode = async () => {
    setCodeError(null);
    const wanted = code.trim();
    if (!wanted) return setCodeError('Enter a promotion code.');
    if (promos.some((p) => p.code.toUpperCase() === wanted.toUpperCase()))
      return setCodeError('This code is already applied.');
    try {
      const found = (await findPromotion(wanted)).promotions.find((p) => !p.expired && p.currency === currency);
      if (!found) return setCodeError(`No current ${currency} promotion has the code ${wanted}.`);
      // The rules the server applies again on submit (decisions 125, 163): usage limit, the order's customer type.
      const refusal = promotionRefusal(
        { ...found, active: true },
        { today: todayIso(), currency, customerType: orderCustomerType(draft, flow.record?.customer_id ?? null) },
      );
      if (refusal) return setCodeError(refusal);
      const entry: OrderPromotionEntry = {
        promoId: found.promo_id,
        code: found.code,
        name: found.name,
        method: found.method,
        amount: found.amount_cents != null ? centsToDecimal(found.amount_cents) : null,
        percent: found.percent,
      };
      update((d) => ({ ...d, PromotionInfo: [...((d.PromotionInfo ?? []) as OrderPromotionEntry[]), entry] }));
      setCode('');
    } catch (error) {
      setCodeError(describeError(error).message);
    }
  };

  const submit = async () => {
    const next = { ...draft, noOfTerminals: terminals, totalSalePrice: centsToDecimal(orderTotals(draft).totalCents) };
    setBusy(true);
    const outcome = await flow.save(next);
    setBusy(false);
    if (outcome === 'saved' || outcome === 'kept')
      void navigate(stepPath(nextStep(orderType, 'saleSummary')!, orderId));
  };

  const checklist = (draft.SaleRepChecklist ?? {}) as Record<string, unknown>;
  return (
    <StepFrame
      orderId={orderId}
      step="saleSummary"
      orderType={orderType}
      country={country}
      title="Select hardware"
      reference={flow.record?.unifiedOrderId}
      pending={flow.pending}
      busy={busy}
      onSubmit={() => void submit()}
    >
      {bundles.isPending ? (
        <Spinner busy />
      ) : (
        <>
          <ProductQuantities
            currency={currency}
            items={items}
            onChange={(next) => update((d) => ({ ...d, BillingItemInfo: next }))}
          />
          <ChargeQuantities
            currency={currency}
            items={items}
            onChange={(next) => update((d) => ({ ...d, BillingItemInfo: next }))}
          />
          <Table aria-label="Bundles">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Bundle</Table.Th>
                <Table.Th ta="right">Monthly</Table.Th>
                <Table.Th>Quantity</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(bundles.data?.bundles ?? []).map((b) => (
                <Table.Tr key={b.bundle_id}>
                  <Table.Td>{b.name}</Table.Td>
                  <Table.Td ta="right">
                    {b.monthly_price_cents == null ? '—' : formatCents(b.monthly_price_cents, currency)}
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Quantity of bundle ${b.name}`}
                      type="number"
                      min={0}
                      w={90}
                      value={String(bundleQuantity(b.bundle_id))}
                      onChange={(x) => setBundle(b, qty(x.currentTarget.value))}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      <Text>Terminals on this order: {terminals}</Text>
      {flow.errors.noOfTerminals && (
        <Text c="red" role="alert">
          {flow.errors.noOfTerminals}
        </Text>
      )}
      <Fieldset legend="Promotions and discount">
        <Stack gap="sm">
          <Group align="flex-end">
            <TextInput
              label="Promotion code"
              value={code}
              onChange={(x) => setCode(x.currentTarget.value)}
              error={codeError}
            />
            <Button variant="light" onClick={() => void applyCode()}>
              Apply code
            </Button>
          </Group>
          {promos.map((p) => (
            <Group key={p.code} gap="xs">
              <Text>
                {p.code} — {p.name}
              </Text>
              <Button
                size="xs"
                variant="subtle"
                onClick={() =>
                  update((d) => ({
                    ...d,
                    PromotionInfo: ((d.PromotionInfo ?? []) as OrderPromotionEntry[]).filter((x) => x.code !== p.code),
                  }))
                }
              >
                Remove {p.code}
              </Button>
            </Group>
          ))}
          <TextInput
            label="Additional discount"
            description="An amount like 25.00"
            value={typeof draft.additionalDiscount === 'string' ? draft.additionalDiscount : ''}
            onChange={(x) => {
              const value = x.currentTarget.value;
              update((d) => ({ ...d, additionalDiscount: value }));
            }}
            error={flow.errors.additionalDiscount}
            w={200}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend="Sales-rep checklist">
        <Stack gap="xs">
          {CHECKLIST.map((c) => (
            <Checkbox
              key={c.key}
              label={c.label}
              checked={checklist[c.key] === true}
              onChange={(x) => {
                const checked = x.currentTarget.checked;
                update((d) => ({
                  ...d,
                  SaleRepChecklist: { ...((d.SaleRepChecklist ?? {}) as Record<string, unknown>), [c.key]: checked },
                }));
              }}
            />
          ))}
        </Stack>
      </Fieldset>
      <OrderTotalsTable totals={totals} caption="Order so far" />
    </StepFrame>
  );
}

/** #/sale-summary/{orderId}: SELECT HARDWARE — products, bundles, promotions, discount and the sales-rep checklist. */
export default function SaleSummaryPage() {
  return <OrderStepPage>{(ctx) => <SaleSummaryStep {...ctx} />}</OrderStepPage>;
}
