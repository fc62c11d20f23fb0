import { IMPORT_COLUMNS, IMPORT_SAMPLES, type ImportKind } from '../../../shared/schemas/imports.ts';
import { templateCsv } from './parse.ts';

/** The CSV template of a kind: its header and a sample row, so a file starts from the columns the check expects. */
export const template = (kind: ImportKind) => templateCsv(IMPORT_COLUMNS[kind], IMPORT_SAMPLES[kind]);
