export { mem0Driver } from './driver';
export { Mem0Store, MEM0_CAPABILITIES } from './mem0-adapter';
export { Mem0Collection, QUERY_TEXT } from './collection';
export { HandedEmbeddings } from './embedder';
export { FIELD_KEYS, MEM0_KEYS, AGENT_ID } from './records';
export { MEM0_SCORES, mem0ScoreToCanonical } from './scores';
export { mem0PackageVersions } from './versions';
export { compileMem0Filter, MEM0_FILTER_OPERATORS } from './filter-compile';
