/** The owner maps of table-owners.js, for the TypeScript that checks them. */
export declare const TABLE_OWNERS: Record<string, string[]>;
export declare const TABLE_READS: Record<string, string[]>;
