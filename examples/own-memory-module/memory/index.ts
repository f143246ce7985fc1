export { MemoryManager, type Memory, type Recalled, type Scope } from './memory-manager';
export { ChatHistory, PayloadError, type ChatMessage, type HistoryOptions, type Role } from './chat-history';
