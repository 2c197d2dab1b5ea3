import { MantineProvider } from '@mantine/core';
import type { BankListItem, MerchantCountryCode } from '@pos/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CARD, type CardInput } from '../lib/gateway';
import {
  BankAccountFields,
  CardFields,
  EMPTY_BANK_ACCOUNT,
  type BankAccountInput,
  type FieldErrors,
} from './payment-method-fields';

/** The fields held by a parent, as the pages hold them; `seen` is the value after every change. */
function Card({ seen, errors }: { seen: CardInput[]; errors?: FieldErrors }) {
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  return (
    <CardFields
      value={card}
      errors={errors}
      onChange={(patch) =>
        setCard((c) => {
          const next = { ...c, ...patch };
          seen.push(next);
          return next;
        })
      }
    />
  );
}

function Bank(props: {
  seen: BankAccountInput[];
  country: MerchantCountryCode;
  banks?: BankListItem[];
  errors?: FieldErrors;
  accountOnFile?: string;
}) {
  const [bank, setBank] = useState<BankAccountInput>(EMPTY_BANK_ACCOUNT);
  return (
    <BankAccountFields
      value={bank}
      country={props.country}
      banks={props.banks}
      errors={props.errors}
      accountOnFile={props.accountOnFile}
      onChange={(patch) =>
        setBank((b) => {
          const next = { ...b, ...patch };
          props.seen.push(next);
          return next;
        })
      }
    />
  );
}

const show = (ui: ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);
const box = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) }) as HTMLInputElement;

describe('CardFields', () => {
  it('takes name, number, expiry and security code, with the browser’s card autofill names', async () => {
    const seen: CardInput[] = [];
    show(<Card seen={seen} />);
    const user = userEvent.setup();
    await user.type(box('Name on card'), 'Pat Owner');
    await user.type(box('Card number'), '4242 4242 4242 4242');
    await user.type(box('Expiry month'), '12');
    await user.type(box('Expiry year'), '2030');
    await user.type(box('Security code'), '123');
    expect(seen.at(-1)).toEqual({
      name: 'Pat Owner',
      number: '4242 4242 4242 4242',
      expMonth: '12',
      expYear: '2030',
      cvc: '123',
    });
    expect(box('Card number').autocomplete).toBe('cc-number');
    expect(box('Security code').autocomplete).toBe('cc-csc');
  });

  it('shows the gateway’s field errors under their fields', () => {
    show(<Card seen={[]} errors={{ number: 'Enter a valid card number.', name_on_account: 'Enter the name.' }} />);
    expect(screen.getByText('Enter a valid card number.')).toBeTruthy();
    expect(screen.getByText('Enter the name.')).toBeTruthy();
  });
});

describe('BankAccountFields', () => {
  it('a US account: routing number (ABA), no institution number; the account type is a choice', async () => {
    const seen: BankAccountInput[] = [];
    show(<Bank seen={seen} country="US" errors={{ routing_number: 'Enter a valid 9-digit ABA routing number.' }} />);
    const user = userEvent.setup();
    expect(screen.queryByRole('textbox', { name: /Institution number/ })).toBeNull();
    await user.type(box('Name on account'), 'Pat Owner');
    await user.type(box('Bank name'), 'First Test Bank');
    await user.type(box('Routing number'), '011000015');
    await user.type(box('Account number'), '000123456789');
    await user.click(screen.getByRole('radio', { name: 'Savings' }));
    expect(seen.at(-1)).toEqual({
      name: 'Pat Owner',
      bankId: '',
      bankName: 'First Test Bank',
      routing: '011000015',
      institution: '',
      account: '000123456789',
      accountType: 'savings',
    });
    expect(screen.getByText('Enter a valid 9-digit ABA routing number.')).toBeTruthy();
  });

  it('a Canadian account: transit and institution numbers; a bank from the list fills its institution number', async () => {
    const seen: BankAccountInput[] = [];
    const banks: BankListItem[] = [
      { id: 7, name: 'Royal Bank', country: 'CA', routing_number: null, institution_number: '003' },
    ];
    show(<Bank seen={seen} country="CA" banks={banks} />);
    const user = userEvent.setup();
    expect(screen.queryByRole('textbox', { name: /Routing number/ })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: /Bank/ }), 'Royal Bank');
    expect(seen.at(-1)).toMatchObject({ bankId: '7', bankName: 'Royal Bank', institution: '003', routing: '' });
    expect(box('Institution number').value).toBe('003');
    await user.type(box('Transit number'), '12345');
    expect(seen.at(-1)).toMatchObject({ routing: '12345', institution: '003' });
  });

  it('an account number on file need not be typed again', () => {
    show(<Bank seen={[]} country="US" accountOnFile="****6789" />);
    const account = box('Account number');
    expect(account.required).toBe(false);
    const field = account.closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(within(field).getByText(/\*\*\*\*6789 is on file/)).toBeTruthy();
  });
});
