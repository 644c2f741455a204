/** Each forged model must stay under this many bytes after compression (ARCHITECTURE §6). */
export const SIZE_BUDGET_BYTES = 400 * 1024;
