/** List filters, sorting and paging shared by the reference server and the local replica. */
export * from './custom-fields';
export * from './custom-value-columns';
export * from './paging';
export * from './project-filter';
export * from './query-values';
export * from './ranges';
export * from './sql';
export * from './task-filter';
