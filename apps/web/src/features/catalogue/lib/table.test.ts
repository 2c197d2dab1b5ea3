import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, toCsv, viewOf, type Column } from './table';

type Row = { id: number; name: string; price: number | null };
const columns: Column<Row>[] = [
  { key: 'id', label: 'Id', value: (r) => r.id },
  { key: 'name', label: 'Name', value: (r) => r.name },
  { key: 'price', label: 'USD price', value: (r) => r.price },
];

describe('catalogue lists', () => {
  const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({
    id: i + 1,
    name: `Item ${i + 1}`,
    price: i % 3 === 0 ? null : i * 100,
  }));

  it('filters on any column, sorts numbers as numbers with no price last either way, pages by PAGE_SIZE', () => {
    expect(viewOf(rows, columns, { filter: 'item 2', sort: null, page: 1 }).matching.map((r) => r.id)).toEqual([
      2, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    ]);
    const desc = viewOf(rows, columns, { filter: '', sort: { key: 'price', desc: true }, page: 1 });
    expect(desc.matching[0]!.price).toBe(2900);
    expect(desc.matching.at(-1)!.price).toBeNull();
    const asc = viewOf(rows, columns, { filter: '', sort: { key: 'price', desc: false }, page: 1 });
    expect(asc.matching.at(-1)!.price).toBeNull();
    expect(
      viewOf(rows, columns, { filter: '', sort: { key: 'id', desc: false }, page: 2 }).page.map((r) => r.id),
    ).toEqual(Array.from({ length: 30 - PAGE_SIZE }, (_, i) => PAGE_SIZE + i + 1));
  });

  it('writes every matching row as CSV, quoting and defusing formulas', () => {
    expect(toCsv(columns, [{ id: 1, name: '=SUM(A1), "x"', price: null }])).toBe(
      'Id,Name,USD price\r\n1,"\'=SUM(A1), ""x""",\r\n',
    );
  });
});
