import type { Role } from '@pos/domain';
import { inArray } from 'drizzle-orm';
import { CHANNEL_FOR_TYPE, agentValues, hashPassword } from '../factories';
import { agents, distributorAccounts, salesPersons, staffUsers } from '../schema';
import { DEMO_DISTRIBUTOR_LOGIN, DEMO_STAFF } from './reference-data';
import { insertMany, reserveIds } from './bulk';
import { AGENT_DEFS, SALES_PEOPLE, agentEmail } from './demo-defs';
import { type DemoRun, type DemoPeople, type DemoReference } from './demo-run';

/** Agents, staff users, the distributor login and the sales persons (written now: later parts need their ids). */
export async function seedPeople(run: DemoRun, { access }: DemoReference): Promise<DemoPeople> {
  const { db, log } = run;
  // ── agents, staff, distributor login, sales persons ─────────────────────────────────────────────────
  const AGENT_CONTACTS = ['Pat Morgan', 'Luis Ortega', 'Grace Kim', 'Tom Becker', 'Nadia Haddad', 'Owen Price'];
  const AGENT_COMMISSION: Record<string, string | null> = { Distributor: '10.00', REFP: '5.00', RDC: null };
  for (const pass of [false, true]) {
    const defs = AGENT_DEFS.filter((a) => Boolean(a.parent) === pass);
    const parentIds = new Map(
      pass ? (await db.select({ id: agents.id, email: agents.email }).from(agents)).map((a) => [a.email, a.id]) : [],
    );
    await db
      .insert(agents)
      .values(
        defs.map((a) =>
          agentValues({
            name: a.name,
            email: agentEmail(a.key),
            phone: `800-555-${String(1000 + AGENT_DEFS.indexOf(a)).slice(-4)}`,
            type: a.type,
            salesChannel: CHANNEL_FOR_TYPE[a.type],
            salesChannelCode: a.code,
            parentAgentId: a.parent ? (parentIds.get(agentEmail(a.parent)) ?? null) : null,
            // Who to talk to and the agreed commission (decision 124); drawn from no random source.
            contactName: AGENT_CONTACTS[AGENT_DEFS.indexOf(a) % AGENT_CONTACTS.length]!,
            commissionPercent: AGENT_COMMISSION[a.type],
          }),
        ),
      )
      .onConflictDoNothing();
  }
  const agentRows = await db
    .select({ id: agents.id, email: agents.email })
    .from(agents)
    .where(
      inArray(
        agents.email,
        AGENT_DEFS.map((a) => agentEmail(a.key)),
      ),
    );
  const agentId = new Map(AGENT_DEFS.map((a) => [a.key, agentRows.find((r) => r.email === agentEmail(a.key))!.id]));

  const staffAgent: Partial<Record<string, number>> = {
    distributor: agentId.get('demo'),
    rdc: agentId.get('rdc.southwest'),
  };
  await db
    .insert(staffUsers)
    .values(
      DEMO_STAFF.map((s) => ({
        email: `${s.username}@example.com`,
        name: s.name,
        roleId: access.roles.get(s.role as Role)!,
        agentId: staffAgent[s.username] ?? null,
        accountManagerUsername: s.username === 'distributor' || s.username === 'rdc' ? 'ram' : null,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(distributorAccounts)
    .values({
      email: DEMO_DISTRIBUTOR_LOGIN.email,
      name: DEMO_DISTRIBUTOR_LOGIN.name,
      passwordHash: await hashPassword(DEMO_DISTRIBUTOR_LOGIN.password),
      agentId: agentId.get('demo')!,
      roleId: access.roles.get('Distributor')!,
      accountManagerUsername: 'ram',
    })
    .onConflictDoNothing();

  const spIds = await reserveIds(db, 'sales_persons', SALES_PEOPLE.length);
  const salesPeople = SALES_PEOPLE.map((p, i) => ({
    ...p,
    id: spIds[i]!,
    agentId: p.agent ? agentId.get(p.agent)! : null,
  }));
  await insertMany(
    db,
    salesPersons,
    salesPeople.map((p) => ({
      id: p.id,
      name: p.name,
      email: `${p.name.toLowerCase().replace(/[^a-z]+/g, '.')}.sales@example.com`,
      phone: `800-555-${String(2000 + p.id).slice(-4)}`,
      salesChannel: p.channel,
      agentId: p.agentId,
    })),
  );
  log(
    `demo seed: ${AGENT_DEFS.length} agents, ${DEMO_STAFF.length} staff users, 1 distributor login, ${salesPeople.length} sales persons`,
  );

  return { agentId, salesPeople };
}
