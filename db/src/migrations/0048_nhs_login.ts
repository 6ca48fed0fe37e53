import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * NHS login for patients (docs/decisions/patients.md, "NHS login"):
 * - `nhs_logins`: one NHS login started from an order's identity check. `state_hash` is the SHA-256 of
 *   the OpenID `state`, `browser_hash` the SHA-256 of the random cookie given to the browser that
 *   started it (a callback in another browser is refused); `nonce` and `code_verifier` (PKCE) are kept
 *   only until the callback; `used` is set once, so a state (and so a code) is good for one callback.
 *   Kept in the database so any api process can finish a login another one started.
 * - `patient_sessions.method` may be 'nhsLogin'.
 */

const UP = [
  `create table nhs_logins (
    id text primary key,
    order_id text not null references orders (id) on delete cascade,
    state_hash text not null,
    browser_hash text not null,
    nonce text,
    code_verifier text,
    created bigint not null,
    expires bigint not null,
    used bigint
  )`,
  'create unique index nhs_logins_state_key on nhs_logins (state_hash)',
  'create index nhs_logins_expires_idx on nhs_logins (expires)',
  'alter table patient_sessions drop constraint patient_sessions_method_check',
  `alter table patient_sessions add constraint patient_sessions_method_check
     check (method in ('dateOfBirth', 'sms', 'nhsLogin'))`,
];

const DOWN = [
  `delete from patient_sessions where method = 'nhsLogin'`,
  'alter table patient_sessions drop constraint patient_sessions_method_check',
  `alter table patient_sessions add constraint patient_sessions_method_check
     check (method in ('dateOfBirth', 'sms'))`,
  'drop table nhs_logins',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
