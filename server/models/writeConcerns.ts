/**
 * The two write concerns the relay's hot path names. Both keep `w: 'majority'`, the default of replica sets
 * since MongoDB 5.0, so naming one never weakens what a replica set acknowledges (a write concern without `w`
 * would be acknowledged by the primary alone).
 * - JOURNALED: on disk before it is acknowledged, whatever the deployment's default (a standalone mongod's is
 *   in memory). What someone hears of (a visitor's ack, an outbox job) is written so.
 * - APPLIED: acknowledged once applied (mongod's standalone default; the embedded store honours it too), for a
 *   write that a JOURNALED one follows before anyone hears of it: the journal keeps writes in order, so that one
 *   makes both durable, for the price of one journal flush.
 */
export const JOURNALED = { w: 'majority', j: true } as const;
export const APPLIED = { w: 'majority', j: false } as const;
