export * from './types';
export * from './manifest';
export * from './records';
export * from './vectors';
export * from './fingerprint';
export * from './load';
export * from './serialize';
export * from './write';
