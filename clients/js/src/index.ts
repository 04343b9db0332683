// @staykit/client: the typed JavaScript client of the staykit booking API v1.
export * from './client.js';
export { parseExact } from './json.js';
export { amountKeys } from './amounts.js';
export type { components, operations, paths } from './schema.js';
