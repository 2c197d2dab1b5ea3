import { ROLE } from './roles';

/*
 * Who may read a job (GET /api/jobs/{jobId}/{token}; issue 27). A job's data names who asked for it
 * (`requestedBy`, an audit actor: the session's person when a call enqueued it); its output can carry merchant
 * data, so it is readable only by:
 *
 * - its requester: the same kind of actor with the same id (a staff user, a distributor login, a make-token key's
 *   agent) — the person whose screen started it and now polls it;
 * - Admin (the job monitor's people), for every job — also those nobody asked for: scheduled and system jobs,
 *   jobs a merchant's link page or an anonymous call started.
 *
 * Anyone else is answered exactly as for a job that does not exist (404), so a job id tells nothing.
 */

/** Who asked for a job, as its data records it (an audit actor); null or incomplete when nobody is known. */
export interface JobRequester {
  readonly actorType?: string | null;
  readonly actorId?: string | number | null;
}

/** What the rule needs to know about the caller: its session kind and role, and itself as an audit actor. */
export interface JobReader {
  /** 'staff', 'distributor', 'maketoken'. */
  readonly kind: string;
  readonly role: string;
  readonly actor: JobRequester;
}

/** Actor types a person can hold a session as (a job asked for by anyone else is Admin-only). */
const PERSON_ACTORS: readonly string[] = ['staff', 'distributor'];

/** May `reader` read a job whose data names `requester` (null: scheduled, system or unknown)? */
export function mayReadJob(reader: JobReader, requester: JobRequester | null | undefined): boolean {
  if (reader.kind === 'staff' && reader.role === ROLE.ADMIN) return true;
  if (!requester || typeof requester.actorType !== 'string' || !PERSON_ACTORS.includes(requester.actorType))
    return false;
  const mine = reader.actor;
  if (mine.actorType !== requester.actorType) return false;
  if (mine.actorId == null || requester.actorId == null) return false;
  return String(mine.actorId) === String(requester.actorId);
}
