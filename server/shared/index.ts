export * from './auth';
export * from './constants';
export * from './plans';
export * from './reports';
export type * from './types';
