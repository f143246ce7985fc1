export * from './runtime';
export * from './result';
export * from './cell';
export * from './register';
