/*
 * The owner rules on the server (decision 140): for every kind of record, which sessions may see it — the domain's
 * rules (packages/domain/src/access/*-scope.ts, upload-access.ts) as SQL filters for lists and as loaders for calls
 * that name one record. Below the modules (like db/ and http/): every module reads its records through here, and a
 * record a session may not see is answered exactly like one that does not exist (404).
 */
export * from './viewer';
export * from './orders';
export * from './agents';
export * from './stores';
export * from './customers';
export * from './records';
export * from './uploads';
export * from './terminals';
