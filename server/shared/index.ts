export * from './constants';
export * from './auth';
export type * from './types';
export * from './plans';
export * from './reports';
