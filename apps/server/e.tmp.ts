import pg from 'pg';
import { searchPageSql } from './src/modules/customers/customer-search.service';
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/scale1m', max: 1, options: '-c jit=off' });
const v = process.argv[2]!;
const { text, params } = searchPageSql({ kind: 'search', value: v, sort: process.argv[3] }, { limit: 25, offset: 0 });
for (let i = 0; i < 3; i++) await pool.query(text, params);
const r = await pool.query(`explain (analyze, costs off) ${text}`, params);
console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await pool.end();
