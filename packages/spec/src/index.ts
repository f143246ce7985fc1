export * from './errors';
export * from './types';
export * from './capabilities';
export * from './adapter';
